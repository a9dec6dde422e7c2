import type { KeptReceipt, KeptReceiptInput, KeptReceiptStore } from '../types.js';
import { flag, orNull, preparedOnce, type Db } from './shared.js';

interface KeptRow {
  id: number;
  carrier: string;
  carrier_message_id: string;
  status_group_id: number;
  status_id: number;
  error_id: number;
  final: 0 | 1;
  at: number;
  mcc_mnc: string | null;
  kept_at: number;
}

function toKept(row: KeptRow): KeptReceipt {
  const kept: KeptReceipt = {
    id: row.id,
    carrier: row.carrier,
    carrierMessageId: row.carrier_message_id,
    status: { groupId: row.status_group_id, id: row.status_id },
    errorId: row.error_id,
    final: row.final === 1,
    at: row.at,
    keptAt: row.kept_at,
  };
  if (row.mcc_mnc !== null) kept.mccMnc = row.mcc_mnc;
  return kept;
}

export class SqliteKeptReceiptStore implements KeptReceiptStore {
  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare<[string, string, number, number, number, 0 | 1, number, string | null, number, number]>(
      `INSERT INTO kept_receipts (carrier, carrier_message_id, status_group_id, status_id, error_id, final, at, mcc_mnc, kept_at, next_try_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // A read needs no lock: with nothing kept, no write lock is taken.
    anyDue: this.db.prepare<[number], number>('SELECT EXISTS (SELECT 1 FROM kept_receipts WHERE next_try_at <= ?)').pluck(),
    nextTry: this.db.prepare<[], number | null>('SELECT min(next_try_at) FROM kept_receipts').pluck(),
    claim: this.db.prepare<[number, number, number], KeptRow>(
      `UPDATE kept_receipts SET next_try_at = ?
       WHERE id IN (SELECT id FROM kept_receipts WHERE next_try_at <= ? ORDER BY next_try_at, id LIMIT ?)
       RETURNING *`,
    ),
    remove: this.db.prepare<[string]>('DELETE FROM kept_receipts WHERE id IN (SELECT value FROM json_each(?))'),
  }));

  private readonly keepTransaction = preparedOnce(() =>
    this.db.transaction((carrier: string, receipts: readonly KeptReceiptInput[], keptAt: number, nextTryAt: number) => {
      const { insert } = this.sql();
      for (const r of receipts) {
        insert.run(carrier, r.carrierMessageId, r.status.groupId, r.status.id, r.errorId, flag(r.final), r.at, orNull(r.mccMnc), keptAt, nextTryAt);
      }
    }),
  );

  constructor(private readonly db: Db) {}

  async keep(carrier: string, receipts: KeptReceiptInput[], keptAt: number, nextTryAt: number): Promise<void> {
    if (receipts.length > 0) this.keepTransaction().immediate(carrier, receipts, keptAt, nextTryAt);
  }

  async claimDue(now: number, limit: number, nextTryAt: number): Promise<KeptReceipt[]> {
    if (limit <= 0 || this.sql().anyDue.get(now) === 0) return [];
    return this.sql().claim.all(nextTryAt, now, limit).map(toKept).sort((a, b) => a.id - b.id);
  }

  async remove(ids: number[]): Promise<void> {
    if (ids.length > 0) this.sql().remove.run(JSON.stringify(ids));
  }

  async nextTryAt(): Promise<number | undefined> {
    return this.sql().nextTry.get() ?? undefined;
  }
}
