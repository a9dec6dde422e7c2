import { webhookItems, type EventTarget } from '../../core/outbox/webhook-items.js';
import type { OutboxItemInput } from '../../core/store/types.js';
import type { RcsSeen, RcsSeenHandled } from '../../network/rcs-network.js';
import { renderSeenReport } from '../wire/seen-report.js';
import { outboundAttributes, RCS_SEEN_FORMAT, type RcsEventDeps } from './event-deps.js';

/**
 * End users opened RCS messages: each seen report goes to the message's own seen URL if it has one,
 * otherwise to the account's RCS subscriptions to SEEN (the precedence of delivery reports;
 * `notify: false` is about delivery reports and does not stop it). Queued in the durable outbox, all
 * in one write. Each event sends a report: a network that reports a message seen twice gets two
 * (Infobip sends one per message; the sandbox's handset repeats as its caller drives it).
 */
export async function recordSeen(deps: RcsEventDeps, events: RcsSeen[]): Promise<RcsSeenHandled[]> {
  const now = deps.clock.now();
  const items: OutboxItemInput[] = [];
  const handled: RcsSeenHandled[] = [];
  for (const event of events) {
    const message = await deps.store.messages.get(event.accountId, event.messageId);
    if (message?.channel !== 'RCS') continue;
    const targets: EventTarget[] = message.webhook.seenUrl
      ? [{ url: message.webhook.seenUrl }]
      : await deps.subscriptions.targetsFor(message.accountId, 'RCS', 'SEEN', outboundAttributes(message));
    items.push(...webhookItems(message.accountId, targets, RCS_SEEN_FORMAT, renderSeenReport(message, event.seenAt), now));
    handled.push({ accountId: message.accountId, messageId: message.messageId, pushed: targets.length });
  }
  if (items.length > 0) {
    await deps.store.outbox.enqueue(items);
    deps.nudgeWebhooks();
  }
  return handled;
}
