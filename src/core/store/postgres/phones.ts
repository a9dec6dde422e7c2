import { newestFirst, receivedSms } from '../phone-entries.js';
import type { PhoneMessage, PhoneStore, PhoneSummary, ReceivedSms } from '../types.js';
import { jsonText, opt, type Db, type Fragment, type Row, type Sql } from './shared.js';

function toPhoneMessage(r: Row): PhoneMessage {
  const m: PhoneMessage = { accountId: r.account_id, number: r.number, channel: r.channel, receivedAt: r.received_at };
  if (r.direction === 'sent') m.direction = 'sent';
  if (r.from_number !== null) m.from = r.from_number;
  if (r.to_number !== null) m.to = r.to_number;
  if (r.text !== null) m.text = r.text;
  if (r.message_id !== null) m.messageId = r.message_id;
  if (r.payload !== null) m.payload = r.payload;
  return m;
}

/** Inserts phone entries, on the pool or inside the caller's transaction (a call's step). */
export function phoneEntriesInsert(sql: Db, messages: readonly PhoneMessage[]): Fragment {
  return sql`
    INSERT INTO phone_messages (account_id, number, channel, from_number, text, message_id, received_at, payload, direction, to_number)
    SELECT p.account_id, p.number, p.channel, p.from_number, p.text, p.message_id, p.received_at, p.payload::jsonb, p.direction, p.to_number
    FROM unnest(
      ${messages.map((m) => m.accountId)}::text[], ${messages.map((m) => m.number)}::text[],
      ${messages.map((m) => m.channel)}::text[], ${messages.map((m) => opt(m.from))}::text[],
      ${messages.map((m) => opt(m.text))}::text[], ${messages.map((m) => opt(m.messageId))}::text[],
      ${messages.map((m) => m.receivedAt)}::int8[], ${messages.map((m) => jsonText(m.payload))}::text[],
      ${messages.map((m) => m.direction ?? 'received')}::text[], ${messages.map((m) => opt(m.to))}::text[]
    ) WITH ORDINALITY AS p(account_id, number, channel, from_number, text, message_id, received_at, payload, direction, to_number, ord)
    ORDER BY p.ord`;
}

export class PgPhoneStore implements PhoneStore {
  constructor(private readonly sql: Sql) {}

  record(message: PhoneMessage): Promise<void> {
    return this.recordMany([message]);
  }

  async recordMany(messages: PhoneMessage[]): Promise<void> {
    if (messages.length > 0) await phoneEntriesInsert(this.sql, messages);
  }

  async recordSms(received: ReceivedSms[]): Promise<void> {
    if (received.length === 0) return;
    await this.sql`
      UPDATE messages m SET phone_number = r.number, phone_at = r.at
      FROM unnest(
        ${received.map((r) => r.accountId)}::text[], ${received.map((r) => r.pk)}::int8[],
        ${received.map((r) => r.number)}::text[], ${received.map((r) => r.at)}::int8[]
      ) AS r(account_id, pk, number, at)
      WHERE m.account_id = r.account_id AND m.pk = r.pk`;
  }

  async list(accountId: string, number: string, limit: number, options: { includeSent?: boolean } = {}): Promise<PhoneMessage[]> {
    const directions = options.includeSent ? ['received', 'sent'] : ['received'];
    const [recorded, sms] = await Promise.all([
      this.sql`
        SELECT * FROM phone_messages WHERE account_id = ${accountId} AND number = ${number} AND direction = ANY(${directions}::text[])
        ORDER BY received_at DESC, id DESC LIMIT ${limit}`,
      this.sql`
        SELECT account_id, phone_number, sender, content, message_id, phone_at FROM messages
        WHERE account_id = ${accountId} AND phone_number = ${number} AND phone_at IS NOT NULL
        ORDER BY phone_at DESC, pk DESC LIMIT ${limit}`,
    ]);
    const received = sms.map((r) =>
      receivedSms({
        accountId: r.account_id,
        number: r.phone_number,
        sender: r.sender ?? undefined,
        content: r.content,
        messageId: r.message_id,
        receivedAt: r.phone_at,
      }),
    );
    return newestFirst(received, recorded.map(toPhoneMessage), limit);
  }

  /** The newest entry gives the preview; at one instant a received SMS counts as newer, as the phone's list shows it first. */
  async summaries(accountId: string, limit: number): Promise<PhoneSummary[]> {
    const rows = await this.sql`
      WITH activity AS (
        SELECT phone_number AS number, phone_at AS at, 0 AS src, pk AS id, 1 AS received, 0 AS sent, NULL::text AS text, content,
               NULL::jsonb AS payload
        FROM messages WHERE account_id = ${accountId} AND phone_at IS NOT NULL
        UNION ALL
        SELECT number, received_at, 1, id, (direction = 'received')::int, (direction = 'sent')::int, text, NULL::jsonb, payload
        FROM phone_messages WHERE account_id = ${accountId}
      ), totals AS (
        SELECT number, max(at) AS last_at, sum(received)::int8 AS received, sum(sent)::int8 AS sent
        FROM activity GROUP BY number ORDER BY last_at DESC, number LIMIT ${limit}
      )
      SELECT t.number, t.last_at, t.received, t.sent, l.text, l.content, l.payload
      FROM totals t CROSS JOIN LATERAL (
        SELECT text, content, payload FROM activity a WHERE a.number = t.number ORDER BY a.at DESC, a.src, a.id DESC LIMIT 1
      ) l
      ORDER BY t.last_at DESC, t.number`;
    return rows.map((r) => {
      const last: PhoneSummary['last'] = {};
      if (r.text !== null) last.text = r.text;
      const content = r.content ?? r.payload?.content;
      if (content !== null && content !== undefined) last.content = content;
      return { number: r.number, lastAt: r.last_at, received: r.received, sent: r.sent, last };
    });
  }
}
