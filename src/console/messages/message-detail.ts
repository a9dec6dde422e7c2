import { formatInfobipTime, parseInfobipTime } from '../../core/infobip-time.js';
import { attemptDetailWire } from '../../core/outbox/webhook-wire.js';
import { errorObject, statusObject } from '../../core/pipeline/statuses.js';
import { isRcsContent } from '../../core/store/message-content.js';
import type { OutboxItem, Store, StoredMessage, WebhookAttempt } from '../../core/store/types.js';
import { analyzeText, gsm7CharSeptets } from '../../sms/encoding/index.js';
import { failoverOf, messageRow, summaryOf, textOf } from './message-row.js';

/** Webhook items searched for a message's reports: its POSTs are few. */
const MAX_ITEMS = 50;
/** Reports come with the status changes of a message's life; a little slack covers the clocks of several nodes. */
const WINDOW_SLACK_MS = 60_000;

interface LifeEvent {
  at: number;
  event: 'ACCEPTED' | 'SUBMITTED' | 'REPORT' | 'FINAL';
  status?: unknown;
  error?: unknown;
  detail?: string;
}

/** How the phone counts and splits the message. */
function encodingOf(m: StoredMessage): Record<string, unknown> {
  const { content } = m;
  if (isRcsContent(content)) return { encoding: 'RCS', characters: [...(textOf(content) ?? '')].length, parts: m.messageCount };
  if (!('text' in content)) return { encoding: 'BINARY', characters: content.hex.length / 2, parts: m.messageCount };
  const analysis = analyzeText(content.text, content.language ?? {});
  const info: Record<string, unknown> = {
    encoding: analysis.encoding,
    characters: [...content.text].length,
    parts: analysis.messageCount,
    partTexts: analysis.parts,
  };
  if (analysis.encoding === 'UCS2') info.unicodeCharacters = [...new Set([...content.text].filter((char) => gsm7CharSeptets(char) === undefined))];
  return info;
}

/**
 * The reports an item carried for this message: entries naming it (an SMS failover's reports name
 * its RCS message, with `channel: SMS`, and the RCS message's own carry another channel or none).
 */
function reportsIn(item: OutboxItem, reportedId: string, failover: boolean): Array<Record<string, unknown>> {
  if (!item.format.endsWith('-dlr')) return [];
  let entries: unknown;
  try {
    entries = JSON.parse(item.payloads);
  } catch {
    return [];
  }
  if (!Array.isArray(entries)) return [];
  return entries.filter(
    (entry): entry is Record<string, unknown> =>
      typeof entry === 'object' && entry !== null && entry.messageId === reportedId && (entry.channel === 'SMS') === failover,
  );
}

function reportEvent(item: OutboxItem, report: Record<string, unknown>): LifeEvent {
  // The report's own time, the status change it tells of; the item may be made a moment later.
  const at = (typeof report.doneAt === 'string' ? parseInfobipTime(report.doneAt) : undefined) ?? item.createdAt;
  const event: LifeEvent = { at, event: 'REPORT', detail: `${item.format} to ${item.url}` };
  const status = report.status as { groupId?: unknown; id?: unknown } | undefined;
  if (typeof status?.groupId === 'number' && typeof status.id === 'number') event.status = statusObject({ groupId: status.groupId, id: status.id });
  const error = report.error as { id?: unknown } | undefined;
  if (typeof error?.id === 'number' && error.id !== 0) event.error = errorObject(error.id);
  return event;
}

function lifeOf(m: StoredMessage, items: OutboxItem[], reportedId: string, failover: boolean): Array<Record<string, unknown>> {
  const events: LifeEvent[] = [{ at: m.createdAt, event: 'ACCEPTED' }];
  if (m.sentAt !== undefined) events.push({ at: m.sentAt, event: 'SUBMITTED', ...(m.carrier === undefined ? {} : { detail: m.carrier }) });
  for (const item of items) for (const report of reportsIn(item, reportedId, failover)) events.push(reportEvent(item, report));
  if (m.state === 'final') {
    const final: LifeEvent = { at: m.doneAt ?? m.createdAt, event: 'FINAL', status: statusObject(m.status) };
    if (m.errorId !== 0) final.error = errorObject(m.errorId);
    events.push(final);
  }
  // Stable: at one instant, the order above (accepted, submitted, reports, final) stays.
  events.sort((a, b) => a.at - b.at);
  return events.map(({ at, ...rest }) => ({ at: formatInfobipTime(at), ...rest }));
}

function webhooksOf(items: OutboxItem[], attempts: WebhookAttempt[]): Array<Record<string, unknown>> {
  return items.map((item) => ({
    itemId: String(item.id),
    url: item.url,
    format: item.format,
    state: item.state,
    attempts: attempts.filter((a) => a.itemIds.includes(item.id)).map(attemptDetailWire),
  }));
}

/** A message opened in the console: its content, encoding, life and webhooks. */
export async function messageDetail(store: Store, m: StoredMessage, now: number): Promise<Record<string, unknown>> {
  const rcs = failoverOf(m);
  const reportedId = rcs ?? m.messageId;
  const window = { since: m.createdAt, until: (m.doneAt ?? now) + WINDOW_SLACK_MS };
  const items = await store.outbox.itemsCarrying(m.accountId, reportedId, window, MAX_ITEMS);
  const mine = items.filter((item) => !item.format.endsWith('-dlr') || reportsIn(item, reportedId, rcs !== undefined).length > 0);
  const attempts = await store.outbox.attemptsOfItems(m.accountId, mine.map((item) => item.id), m.createdAt);
  const detail: Record<string, unknown> = { message: messageRow(summaryOf(m)), content: m.content };
  if (m.callbackData !== undefined) detail.callbackData = m.callbackData;
  detail.validUntil = formatInfobipTime(m.validUntil);
  if (m.webhook.url !== undefined) detail.webhookUrl = m.webhook.url;
  detail.encoding = encodingOf(m);
  detail.life = lifeOf(m, mine, reportedId, rcs !== undefined);
  detail.webhooks = webhooksOf(mine, attempts);
  return detail;
}
