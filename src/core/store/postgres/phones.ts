import type { PhoneMessage, PhoneStore } from '../types.js';
import { type Db, type Fragment, jsonText, opt, type Row, type Sql } from './shared.js';

function toPhoneMessage(r: Row): PhoneMessage {
  const m: PhoneMessage = { accountId: r.account_id, number: r.number, channel: r.channel, receivedAt: r.received_at };
  if (r.from_number !== null) m.from = r.from_number;
  if (r.text !== null) m.text = r.text;
  if (r.message_id !== null) m.messageId = r.message_id;
  if (r.payload !== null) m.payload = r.payload;
  return m;
}

export class PgPhoneStore implements PhoneStore {
  constructor(private readonly sql: Sql) {}

  record(message: PhoneMessage): Promise<void> {
    return this.recordMany([message]);
  }

  async recordMany(messages: PhoneMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await phoneInsert(this.sql, messages);
  }

  async list(accountId: string, number: string, limit: number): Promise<PhoneMessage[]> {
    const rows = await this.sql`
      SELECT * FROM phone_messages WHERE account_id = ${accountId} AND number = ${number}
      ORDER BY received_at DESC, id DESC LIMIT ${limit}`;
    return rows.map(toPhoneMessage);
  }
}

/**
 * `INSERT INTO phone_messages … SELECT … FROM unnest(…)`, usable alone or inside a CTE. With `tags`,
 * entry i carries `tags.values[i]` and is inserted only if `tags.source` (a fragment selecting one
 * column) selects that tag.
 */
export function phoneInsert(sql: Db, messages: PhoneMessage[], tags?: { values: number[]; source: Fragment }): Fragment {
  const filter = tags ? sql`WHERE p.tag IN (${tags.source})` : sql``;
  return sql`
    INSERT INTO phone_messages (account_id, number, channel, from_number, text, message_id, received_at, payload)
    SELECT p.account_id, p.number, p.channel, p.from_number, p.text, p.message_id, p.received_at, p.payload::jsonb
    FROM unnest(
      ${messages.map((m) => m.accountId)}::text[], ${messages.map((m) => m.number)}::text[],
      ${messages.map((m) => m.channel)}::text[], ${messages.map((m) => opt(m.from))}::text[],
      ${messages.map((m) => opt(m.text))}::text[], ${messages.map((m) => opt(m.messageId))}::text[],
      ${messages.map((m) => m.receivedAt)}::int8[], ${messages.map((m) => jsonText(m.payload))}::text[],
      ${tags ? tags.values : new Array<number>(messages.length).fill(0)}::int8[]
    ) WITH ORDINALITY AS p(account_id, number, channel, from_number, text, message_id, received_at, payload, tag, ord)
    ${filter}
    ORDER BY p.ord`;
}
