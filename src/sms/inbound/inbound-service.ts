import type { Logger } from '../../logger.js';
import type { Clock } from '../../core/clock.js';
import { newInboundMessageId } from '../../core/ids.js';
import type { Metrics } from '../../core/metrics.js';
import type { InboundMessage, OutboxItemInput, Store } from '../../core/store/types.js';
import type { SubscriptionMatcher } from '../../core/subscriptions/matcher.js';
import type { InboundSms } from '../../network/carrier.js';
import { renderInbound } from '../wire/report-shapes.js';
import { splitKeyword } from './keyword.js';

export interface InboundServiceDeps {
  store: Store;
  clock: Clock;
  metrics: Metrics;
  log: Logger;
  subscriptions: SubscriptionMatcher;
  /** Called after messages with webhook items were stored, so the sender claims them at once. */
  onWebhooksQueued: () => void;
}

/**
 * Takes mobile-originated SMS from the networks. A message matching an INBOUND_MESSAGE subscription
 * (by receiving number and criteria) is pushed to every matching webhook and is then not pullable;
 * one matching none waits for `GET /sms/1/inbox/reports`. Each message is stored with its webhook
 * items in one transaction, so a push is never lost nor a message both pushed and pulled.
 */
export class InboundService {
  constructor(private readonly deps: InboundServiceDeps) {}

  /**
   * Stores each message (pushed or pullable) and returns them with their ids. If any could not be
   * stored, the others still are and the call rejects afterwards, so the sender (an HTTP caller, a
   * network that waits for an acknowledgement) learns that not everything was taken.
   */
  async receive(messages: InboundSms[]): Promise<InboundMessage[]> {
    let queued = false;
    const stored: InboundMessage[] = [];
    let failure: unknown;
    for (const sms of messages) {
      try {
        const { message, pushed } = await this.receiveOne(sms);
        stored.push(message);
        queued = pushed || queued;
      } catch (error) {
        failure ??= error;
        this.deps.log.error({ err: error, accountId: sms.accountId, to: sms.to }, 'inbound SMS not stored');
      }
    }
    if (queued) this.deps.onWebhooksQueued();
    if (failure !== undefined) throw failure;
    return stored;
  }

  private async receiveOne(sms: InboundSms): Promise<{ message: InboundMessage; pushed: boolean }> {
    const { store, clock, metrics, subscriptions } = this.deps;
    const message: InboundMessage = {
      accountId: sms.accountId,
      messageId: newInboundMessageId(),
      from: sms.from,
      to: sms.to,
      text: sms.text,
      ...splitKeyword(sms.text),
      receivedAt: sms.receivedAt,
      smsCount: sms.smsCount,
    };
    const targets = await subscriptions.targetsFor(sms.accountId, 'SMS', 'INBOUND_MESSAGE', { to: sms.to });
    const now = clock.now();
    const payload = renderInbound(message);
    const webhooks: OutboxItemInput[] = targets.map((target) => ({
      accountId: sms.accountId,
      url: target.url,
      format: 'sms-mo',
      payload,
      security: target.security,
      subscriptionId: target.subscriptionId,
      createdAt: now,
      dueAt: now,
    }));
    await store.inbound.insert(message, { pullable: webhooks.length === 0, webhooks });
    metrics.inboundReceived.inc({ channel: 'SMS' });
    return { message, pushed: webhooks.length > 0 };
  }
}
