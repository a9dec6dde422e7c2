import type { InboundFilter, InboundMessage, InboundPartInput, InboundPartOutcome, InboundPartSet, InboundStore, OutboxItemInput } from '../types.js';
import { PgInboundParts } from './inbound-parts.js';
import { and, type Db, type Fragment, opt, outboxInsert, type Row, type Sql } from './shared.js';

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
  private readonly parts: PgInboundParts;

  constructor(private readonly sql: Sql) {
    this.parts = new PgInboundParts(sql);
  }

  async insert(
    message: InboundMessage,
    options: { pullable: boolean; webhooks?: OutboxItemInput[]; completes?: { accountId: string; setKey: string; at: number } },
  ): Promise<boolean> {
    const { completes } = options;
    if (!completes) return this.insertWith(this.sql, message, options);
    return this.sql.begin(async (tx) => {
      const done = await tx`
        UPDATE inbound_part_sets SET done_at = ${completes.at}
        WHERE account_id = ${completes.accountId} AND set_key = ${completes.setKey} AND done_at IS NULL
        RETURNING 1`;
      if (done.length === 0) return false;
      return this.insertWith(tx, message, options);
    });
  }

  addPart(part: InboundPartInput): Promise<InboundPartOutcome> {
    return this.parts.add(part);
  }

  listStaleSets(firstBy: number, limit: number): Promise<InboundPartSet[]> {
    return this.parts.stale(firstBy, limit);
  }

  purgeDoneSets(before: number): Promise<number> {
    return this.parts.purgeDone(before);
  }

  private async insertWith(sql: Db, message: InboundMessage, options: { pullable: boolean; webhooks?: OutboxItemInput[] }): Promise<boolean> {
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
      return true;
    }
    // Both inserts in one statement, hence one transaction.
    await sql`WITH msg AS (${insert}), box AS (${outboxInsert(sql, webhooks)}) SELECT 1`;
    return true;
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
