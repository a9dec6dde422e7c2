import { STATUS_GROUPS } from '../../core/pipeline/statuses.js';
import { webhookItems, type EventTarget } from '../../core/outbox/webhook-items.js';
import type { StoredMessage } from '../../core/store/types.js';
import { renderSeenReport, type SeenReport } from '../wire/seen-report.js';
import { outboundAttributes, RCS_SEEN_FORMAT, type HandsetDeps } from './handset-deps.js';

export type SeenOutcome =
  /** No RCS message of the account has this id (an SMS, another account's, none at all). */
  | { kind: 'unknown' }
  /** The message never reached the handset, so it cannot be seen there. */
  | { kind: 'not-on-handset'; why: string }
  | { kind: 'reported'; report: SeenReport; seenAt: number; pushed: number };

const DELIVERED_GROUP = STATUS_GROUPS.indexOf('DELIVERED');

/**
 * The end user opened an RCS message: its seen report goes to the message's own seen URL if it has
 * one, otherwise to the account's RCS subscriptions to SEEN (the precedence of delivery reports;
 * `notify: false` is about delivery reports and does not stop it). Queued in the durable outbox.
 *
 * A message can be seen once it reached the phone: delivered, or still awaiting its delivery
 * report (a receipt may come after the user opened it). Seeing a message again sends another
 * report each time: Infobip sends one per message, but the sandbox plays the handset as the
 * caller drives it, so a test that wants a repeat gets one. UNCONFIRMED against a real account.
 */
export async function reportSeen(deps: HandsetDeps, accountId: string, messageId: string): Promise<SeenOutcome> {
  const message = await deps.store.messages.get(accountId, messageId);
  if (!message || message.channel !== 'RCS') return { kind: 'unknown' };
  const why = notOnHandset(message);
  if (why !== undefined) return { kind: 'not-on-handset', why };

  const seenAt = deps.clock.now();
  const report = renderSeenReport(message, seenAt);
  const targets: EventTarget[] = message.webhook.seenUrl
    ? [{ url: message.webhook.seenUrl }]
    : await deps.subscriptions.targetsFor(accountId, 'RCS', 'SEEN', outboundAttributes(message));
  if (targets.length > 0) {
    await deps.store.outbox.enqueue(webhookItems(accountId, targets, RCS_SEEN_FORMAT, report, seenAt));
    deps.nudgeWebhooks();
  }
  return { kind: 'reported', report, seenAt, pushed: targets.length };
}

function notOnHandset(m: StoredMessage): string | undefined {
  if (m.state === 'queued' || m.state === 'dispatching') return 'has not been sent yet';
  if (m.state === 'final' && m.status.groupId !== DELIVERED_GROUP) return 'was not delivered';
  return undefined;
}
