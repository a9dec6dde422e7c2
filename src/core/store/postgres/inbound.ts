import type { InboundFilter, InboundMessage, InboundStore, OutboxItemInput } from '../types.js';
import { and, type Fragment, opt, outboxInsert, type Row, type Sql } from './shared.js';

function toInbound(r: Row): InboundMessage {
  const m: InboundMessage = {
    accountId: r.account_id,
    messageId: r.message_id,
    from: r.from_number,
    to: r.to_number,
    text: r.text,
    cleanText: r.clean_text,
    receivedAt: r.received_at,
    smsCount: r.sms_count,
  };
  if (r.keyword !== null) m.keyword = r.keyword;
  if (r.callback_data !== null) m.callbackData = r.callback_data;
  if (r.application_id !== null) m.applicationId = r.application_id;
  if (r.entity_id !== null) m.entityId = r.entity_id;
  if (r.campaign_reference_id !== null) m.campaignReferenceId = r.campaign_reference_id;
  return m;
}

export class PgInboundStore implements InboundStore {
  constructor(private readonly sql: Sql) {}

  async insert(message: InboundMessage, options: { pullable: boolean; webhooks?: OutboxItemInput[] }): Promise<void> {
    const sql = this.sql;
    const m = message;
    const insert = sql`
      INSERT INTO inbound (account_id, message_id, from_number, to_number, text, clean_text, keyword, received_at,
                           sms_count, callback_data, application_id, entity_id, campaign_reference_id, pullable)
      VALUES (${m.accountId}, ${m.messageId}, ${m.from}, ${m.to}, ${m.text}, ${m.cleanText}, ${opt(m.keyword)},
              ${m.receivedAt}, ${m.smsCount}, ${opt(m.callbackData)}, ${opt(m.applicationId)}, ${opt(m.entityId)},
              ${opt(m.campaignReferenceId)}, ${options.pullable})`;
    const webhooks = options.webhooks ?? [];
    if (webhooks.length === 0) {
      await insert;
      return;
    }
    // Both inserts in one statement, hence one transaction.
    await sql`WITH msg AS (${insert}), box AS (${outboxInsert(sql, webhooks)}) SELECT 1`;
  }

  async consume(filter: InboundFilter): Promise<{ messages: InboundMessage[]; pending: number }> {
    const sql = this.sql;
    const where: Fragment[] = [
      sql`account_id = ${filter.accountId}`,
      sql`pullable`,
      sql`consumed_at IS NULL`,
      sql`received_at >= ${filter.since}`,
    ];
    if (filter.applicationId !== undefined) where.push(sql`application_id = ${filter.applicationId}`);
    if (filter.entityId !== undefined) where.push(sql`entity_id = ${filter.entityId}`);
    if (filter.campaignReferenceId !== undefined) {
      where.push(sql`campaign_reference_id = ${filter.campaignReferenceId}`);
    }
    const rows =
      filter.limit > 0
        ? await sql`
            UPDATE inbound SET consumed_at = ${Date.now()}
            WHERE id IN (
              SELECT id FROM inbound WHERE ${and(sql, where)}
              ORDER BY id LIMIT ${filter.limit}
              FOR UPDATE SKIP LOCKED)
            RETURNING *`
        : [];
    const left = await sql`SELECT count(*) AS n FROM inbound WHERE ${and(sql, where)}`;
    const messages = [...rows].sort((a, b) => a.id - b.id).map(toInbound);
    return { messages, pending: left[0]!.n };
  }
}
