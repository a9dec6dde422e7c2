import type { Logger } from '../../logger.js';
import type { Clock } from '../../core/clock.js';
import { newInboundMessageId } from '../../core/ids.js';
import type { Metrics } from '../../core/metrics.js';
import type { InboundMessage, InboundPartSet, OutboxItemInput, Store } from '../../core/store/types.js';
import type { SubscriptionMatcher } from '../../core/subscriptions/matcher.js';
import type { InboundSms, InboundSmsPart } from '../../network/carrier.js';
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
  /**
   * How long the parts of a concatenated message wait for the rest (default 10 min): then what
   * arrived is stored as the message. Also how long a completed set is kept to know repeats.
   */
  partsMaxAgeMs?: number;
}

/** The part sets expired or purged per round of `expireParts`. */
const EXPIRY_PAGE = 100;

type Completes = { accountId: string; setKey: string; at: number };

/**
 * Takes mobile-originated SMS from the networks. A message matching an INBOUND_MESSAGE subscription
 * (by receiving number and criteria) is pushed to every matching webhook and is then not pullable;
 * one matching none waits for `GET /sms/1/inbox/reports`. Each message is stored with its webhook
 * items in one transaction, so a push is never lost nor a message both pushed and pulled.
 *
 * The parts of a concatenated message are stored as they arrive, on whichever node receives each,
 * and the message is made of them when the last one comes; an incomplete set is stored as the
 * message it is after `partsMaxAgeMs` (what arrived, in order, counted as the parts that came).
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

  /**
   * Stores one part of a concatenated message (rejects when it could not be), and the message once
   * its set is complete. Resolves once both are stored.
   */
  async receivePart(part: InboundSmsPart): Promise<void> {
    const setKey = JSON.stringify([part.from, part.to, part.reference, part.total]);
    const outcome = await this.deps.store.inbound.addPart({
      accountId: part.accountId,
      setKey,
      from: part.from,
      to: part.to,
      total: part.total,
      seq: part.seq,
      text: part.text,
      receivedAt: part.receivedAt,
    });
    if (outcome.kind !== 'complete') return;
    await this.receiveSet(outcome.set);
  }

  /**
   * Stores as messages the part sets whose first part came `partsMaxAgeMs` ago or more (any node may;
   * each set becomes one message), and forgets completed sets as old.
   */
  async expireParts(): Promise<void> {
    const cutoff = this.deps.clock.now() - (this.deps.partsMaxAgeMs ?? 600_000);
    for (;;) {
      const stale = await this.deps.store.inbound.listStaleSets(cutoff, EXPIRY_PAGE);
      for (const set of stale) await this.receiveSet(set);
      if (stale.length < EXPIRY_PAGE) break;
    }
    await this.deps.store.inbound.purgeDoneSets(cutoff);
  }

  private async receiveSet(set: InboundPartSet): Promise<void> {
    const receivedAt = Math.max(...set.parts.map((p) => p.receivedAt));
    const sms: InboundSms = { accountId: set.accountId, from: set.from, to: set.to, text: set.parts.map((p) => p.text).join(''), smsCount: set.parts.length, receivedAt };
    const { pushed } = await this.receiveOne(sms, { accountId: set.accountId, setKey: set.setKey, at: this.deps.clock.now() });
    if (pushed) this.deps.onWebhooksQueued();
  }

  private async receiveOne(sms: InboundSms, completes?: Completes): Promise<{ message: InboundMessage; pushed: boolean }> {
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
    const stored = await store.inbound.insert(message, { pullable: webhooks.length === 0, webhooks, ...(completes ? { completes } : {}) });
    if (!stored) return { message, pushed: false };
    metrics.inboundReceived.inc({ channel: 'SMS' });
    return { message, pushed: webhooks.length > 0 };
  }
}
