import { newInboundMessageId } from '../../core/ids.js';
import { webhookItems } from '../../core/outbox/webhook-items.js';
import type { OutboxItemInput } from '../../core/store/types.js';
import type { MatchAttributes } from '../../core/subscriptions/subscription-snapshot.js';
import type { InboundRcs, InboundRcsHandled } from '../../network/rcs-network.js';
import { READ_WINDOW_MS } from '../../sms/routes/read-window.js';
import { splitKeyword } from '../../sms/inbound/keyword.js';
import { renderRcsInbound, type PairedMessage, type RcsInbound } from '../wire/inbound-message.js';
import { RCS_MO_FORMAT, type RcsEventDeps } from './event-deps.js';

/**
 * Messages from end users to RCS senders, each pushed to its account's RCS subscriptions to
 * INBOUND_MESSAGE whose resources name that sender (or that list none); queued in one write.
 * Infobip offers no pull API for RCS inbound messages, so one that matches no subscription is
 * dropped, as Infobip drops those of a sender without a webhook; `pushed` says which.
 */
export async function receiveRcsInbound(deps: RcsEventDeps, inbound: InboundRcs[]): Promise<InboundRcsHandled[]> {
  const now = deps.clock.now();
  const items: OutboxItemInput[] = [];
  const handled: InboundRcsHandled[] = [];
  for (const input of inbound) {
    const message: RcsInbound = { messageId: newInboundMessageId(), from: input.from, to: input.to, receivedAt: input.receivedAt, content: input.content };
    if (input.content.type === 'TEXT') {
      const { keyword } = splitKeyword(input.content.text);
      if (keyword !== undefined) message.keyword = keyword;
    }
    const paired = await pairedMessage(deps, input);
    if (paired) message.paired = paired;

    const attributes: MatchAttributes = { to: input.to };
    if (paired?.entityId !== undefined) attributes.entityId = paired.entityId;
    if (paired?.applicationId !== undefined) attributes.applicationId = paired.applicationId;
    const targets = await deps.subscriptions.targetsFor(input.accountId, 'RCS', 'INBOUND_MESSAGE', attributes);
    items.push(...webhookItems(input.accountId, targets, RCS_MO_FORMAT, renderRcsInbound(message), now));
    const done: InboundRcsHandled = { messageId: message.messageId, pushed: targets.length };
    if (paired) done.pairedMessageId = paired.messageId;
    handled.push(done);
  }
  if (items.length > 0) {
    await deps.store.outbox.enqueue(items);
    deps.nudgeWebhooks();
  }
  if (inbound.length > 0) deps.metrics.inboundReceived.inc({ channel: 'RCS' }, inbound.length);
  return handled;
}

/**
 * The outbound message an inbound one answers: the newest RCS message the sender sent this user in
 * the 48 hours before it arrived. Its id becomes `pairedMessageId`, and its callback data, campaign
 * and platform are reported with the reply. UNCONFIRMED: Infobip says only that it pairs "if matched".
 */
async function pairedMessage(deps: RcsEventDeps, input: InboundRcs): Promise<PairedMessage | undefined> {
  const [sent] = await deps.store.messages.listLogs({
    accountId: input.accountId,
    since: input.receivedAt - READ_WINDOW_MS,
    sender: input.to,
    destination: input.from,
    channel: 'RCS',
    limit: 1,
  });
  if (!sent) return undefined;
  const paired: PairedMessage = { messageId: sent.messageId };
  if (sent.callbackData !== undefined) paired.callbackData = sent.callbackData;
  if (sent.entityId !== undefined) paired.entityId = sent.entityId;
  if (sent.applicationId !== undefined) paired.applicationId = sent.applicationId;
  if (sent.campaignReferenceId !== undefined) paired.campaignReferenceId = sent.campaignReferenceId;
  return paired;
}
