import type { KeptReceipt, KeptReceiptInput, KeptReceiptStore } from '../types.js';
import { opt, type Row, type Sql } from './shared.js';

function toKept(row: Row): KeptReceipt {
  const kept: KeptReceipt = {
    id: row.id,
    carrier: row.carrier,
    carrierMessageId: row.carrier_message_id,
    status: { groupId: row.status_group_id, id: row.status_id },
    errorId: row.error_id,
    final: row.final,
    at: row.at,
    keptAt: row.kept_at,
  };
  if (row.mcc_mnc !== null) kept.mccMnc = row.mcc_mnc;
  return kept;
}

export class PgKeptReceiptStore implements KeptReceiptStore {
  constructor(private readonly sql: Sql) {}

  async keep(carrier: string, receipts: KeptReceiptInput[], keptAt: number, nextTryAt: number): Promise<void> {
    if (receipts.length === 0) return;
    await this.sql`
      INSERT INTO kept_receipts (carrier, carrier_message_id, status_group_id, status_id, error_id, final, at, mcc_mnc, kept_at, next_try_at)
      SELECT ${carrier}, u.id, u.group_id, u.status_id, u.error_id, u.final = 1, u.at, u.mcc_mnc, ${keptAt}, ${nextTryAt}
      FROM unnest(
        ${receipts.map((r) => r.carrierMessageId)}::text[], ${receipts.map((r) => r.status.groupId)}::int4[],
        ${receipts.map((r) => r.status.id)}::int4[], ${receipts.map((r) => r.errorId)}::int4[],
        ${receipts.map((r) => (r.final ? 1 : 0))}::int4[], ${receipts.map((r) => r.at)}::int8[], ${receipts.map((r) => opt(r.mccMnc))}::text[]
      ) AS u(id, group_id, status_id, error_id, final, at, mcc_mnc)`;
  }

  async claimDue(now: number, limit: number, nextTryAt: number): Promise<KeptReceipt[]> {
    if (limit <= 0) return [];
    const rows = await this.sql`
      UPDATE kept_receipts k SET next_try_at = ${nextTryAt}
      FROM (SELECT id FROM kept_receipts WHERE next_try_at <= ${now} ORDER BY next_try_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
      WHERE k.id = due.id
      RETURNING k.*`;
    return rows.map(toKept).sort((a, b) => a.id - b.id);
  }

  async remove(ids: number[]): Promise<void> {
    if (ids.length > 0) await this.sql`DELETE FROM kept_receipts WHERE id = ANY(${ids}::int8[])`;
  }

  async nextTryAt(): Promise<number | undefined> {
    const [row] = await this.sql<Array<{ at: string | null }>>`SELECT min(next_try_at) AS at FROM kept_receipts`;
    return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
  }
}
