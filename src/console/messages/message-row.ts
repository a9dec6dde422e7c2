import { formatInfobipTime } from '../../core/infobip-time.js';
import { errorObject, statusObject } from '../../core/pipeline/statuses.js';
import { isRcsContent } from '../../core/store/message-content.js';
import type { MessageContent, MessageSummary, RcsContent, StoredMessage } from '../../core/store/types.js';

/** What a card shows first: its title, else its description. */
function cardText(card: unknown): string | undefined {
  if (typeof card !== 'object' || card === null) return undefined;
  const { title, description } = card as { title?: unknown; description?: unknown };
  if (typeof title === 'string') return title;
  return typeof description === 'string' ? description : undefined;
}

function rcsText(content: RcsContent): string | undefined {
  if (typeof content.text === 'string') return content.text;
  if (content.type === 'CARD') return cardText(content.content);
  if (content.type === 'CAROUSEL' && Array.isArray(content.contents)) return cardText(content.contents[0]);
  return undefined;
}

/** The text a list shows for a message: an SMS's text (a binary one's hex), an RCS text or card's title. */
export function textOf(content: MessageContent): string | undefined {
  if (isRcsContent(content)) return rcsText(content);
  return 'text' in content ? content.text : content.hex;
}

/** The SMS failover's RCS message, when the message is one. */
export const failoverOf = (m: StoredMessage): string | undefined => (typeof m.extras?.failoverOf === 'string' ? m.extras.failoverOf : undefined);

/** A stored message as a list shows it. */
export function summaryOf(m: StoredMessage): MessageSummary {
  const rcs = failoverOf(m);
  return rcs === undefined ? m : { ...m, failoverOf: rcs };
}

/** One message as the console lists it. `seq` is the store's sequence number: the live feed names messages by it. */
export function messageRow(m: MessageSummary): Record<string, unknown> {
  const row: Record<string, unknown> = {
    seq: String(m.pk),
    messageId: m.messageId,
    bulkId: m.bulkId,
    channel: m.channel ?? 'SMS',
    api: m.api,
  };
  if (m.sender !== undefined) row.from = m.sender;
  row.to = m.destination;
  const text = textOf(m.content);
  if (text !== undefined) row.text = text;
  if (isRcsContent(m.content)) row.contentType = m.content.type;
  row.encoding = m.encoding;
  row.parts = m.messageCount;
  row.status = statusObject(m.status);
  if (m.errorId !== 0) row.error = errorObject(m.errorId);
  row.createdAt = formatInfobipTime(m.createdAt);
  if (m.sentAt !== undefined) row.sentAt = formatInfobipTime(m.sentAt);
  if (m.doneAt !== undefined) row.doneAt = formatInfobipTime(m.doneAt);
  if (m.failoverOf !== undefined) row.failoverOf = m.failoverOf;
  return row;
}
