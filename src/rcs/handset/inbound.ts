import { newInboundMessageId } from '../../core/ids.js';
import { webhookItems } from '../../core/outbox/webhook-items.js';
import type { MatchAttributes } from '../../core/subscriptions/subscription-snapshot.js';
import { READ_WINDOW_MS } from '../../sms/routes/read-window.js';
import { splitKeyword } from '../../sms/inbound/keyword.js';
import { renderRcsInbound, type PairedMessage, type RcsInbound, type RcsInboundContent } from '../wire/inbound-message.js';
import { RCS_MO_FORMAT, type HandsetDeps } from './handset-deps.js';

export interface RcsInboundInput {
  /** The end user's number, as stored (no leading +). */
  from: string;
  /** The RCS sender (agent) written to. */
  to: string;
  content: RcsInboundContent;
}

/**
 * A message from an end user to an RCS sender, pushed to the account's RCS subscriptions to
 * INBOUND_MESSAGE whose resources name that sender (or that list none). Infobip offers no pull API
 * for RCS inbound messages, so one that matches no subscription is dropped, as Infobip drops those
 * of a sender without a webhook; `pushed` tells the caller.
 */
export async function receiveRcsInbound(
  deps: HandsetDeps,
  accountId: string,
  input: RcsInboundInput,
): Promise<{ message: RcsInbound; pushed: number }> {
  const now = deps.clock.now();
  const message: RcsInbound = { messageId: newInboundMessageId(), from: input.from, to: input.to, receivedAt: now, content: input.content };
  if (input.content.type === 'TEXT') {
    const { keyword } = splitKeyword(input.content.text);
    if (keyword !== undefined) message.keyword = keyword;
  }
  const paired = await pairedMessage(deps, accountId, input, now);
  if (paired) message.paired = paired;

  const attributes: MatchAttributes = { to: input.to };
  if (paired?.entityId !== undefined) attributes.entityId = paired.entityId;
  if (paired?.applicationId !== undefined) attributes.applicationId = paired.applicationId;
  const targets = await deps.subscriptions.targetsFor(accountId, 'RCS', 'INBOUND_MESSAGE', attributes);
  if (targets.length > 0) {
    await deps.store.outbox.enqueue(webhookItems(accountId, targets, RCS_MO_FORMAT, renderRcsInbound(message), now));
    deps.nudgeWebhooks();
  }
  // The phone keeps what it sent, as it keeps what it received.
  await deps.store.phones.record({
    accountId,
    number: input.from,
    channel: 'RCS',
    direction: 'sent',
    to: input.to,
    ...('text' in input.content ? { text: input.content.text } : {}),
    messageId: message.messageId,
    receivedAt: now,
    payload: { content: input.content },
  });
  deps.metrics.inboundReceived.inc({ channel: 'RCS' });
  return { message, pushed: targets.length };
}

/**
 * The outbound message an inbound one answers: the newest RCS message the sender sent this user in
 * the last 48 hours. Its id becomes `pairedMessageId`, and its callback data, campaign and platform
 * are reported with the reply. UNCONFIRMED: Infobip says only that it pairs "if matched".
 */
async function pairedMessage(deps: HandsetDeps, accountId: string, input: RcsInboundInput, now: number): Promise<PairedMessage | undefined> {
  const [sent] = await deps.store.messages.listLogs({
    accountId,
    since: now - READ_WINDOW_MS,
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
