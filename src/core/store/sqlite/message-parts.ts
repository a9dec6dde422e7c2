import { applyPartReceipts, effectiveReceipts } from '../part-receipts.js';
import type { MessagePart, MessagePartStore, PartReceipt, PartReceiptMatch, SubmitResult } from '../types.js';
import { flag, preparedOnce, type Db } from './shared.js';

interface PartRow {
  message_pk: number;
  part_number: number;
  carrier: string;
  part_id: string;
  submitted_at: number;
  status_group_id: number | null;
  status_id: number | null;
  error_id: number | null;
  final: 0 | 1;
  receipt_at: number | null;
}

function toPart(row: PartRow): MessagePart {
  const part: MessagePart = { number: row.part_number, partId: row.part_id, submittedAt: row.submitted_at };
  if (row.status_group_id !== null && row.status_id !== null) {
    part.receipt = { status: { groupId: row.status_group_id, id: row.status_id }, errorId: row.error_id ?? 0, final: row.final === 1, at: row.receipt_at ?? 0 };
  }
  return part;
}

export class SqliteMessagePartStore implements MessagePartStore {
  private readonly sql = preparedOnce(() => ({
    // A message submitted again (its claim had lapsed) replaces the parts of the earlier submit.
    insert: this.db.prepare<[number, number, string, string, number]>(
      `INSERT INTO message_parts (message_pk, part_number, carrier, part_id, submitted_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (message_pk, part_number) DO UPDATE SET carrier = excluded.carrier, part_id = excluded.part_id,
         submitted_at = excluded.submitted_at, status_group_id = NULL, status_id = NULL, error_id = NULL, final = 0, receipt_at = NULL`,
    ),
    partsNamed: this.db.prepare<[string, string], PartRow>(
      // Only parts of messages still waiting for receipts: an SMSC that reuses an id (its counter
      // restarted) must not have its receipt taken by a finished message's part.
      `SELECT * FROM message_parts WHERE message_pk IN (
         SELECT p.message_pk FROM message_parts p JOIN messages m ON m.pk = p.message_pk
         WHERE p.carrier = ? AND p.part_id IN (SELECT value FROM json_each(?)) AND m.state <> 'final')
       ORDER BY message_pk, part_number`,
    ),
    partsOf: this.db.prepare<[string], PartRow>(
      'SELECT * FROM message_parts WHERE message_pk IN (SELECT value FROM json_each(?)) ORDER BY message_pk, part_number',
    ),
    update: this.db.prepare<[number, number, number, 0 | 1, number, number, number]>(
      `UPDATE message_parts SET status_group_id = ?, status_id = ?, error_id = ?, final = ?, receipt_at = ?
       WHERE message_pk = ? AND part_number = ?`,
    ),
  }));

  private readonly recordTransaction = preparedOnce(() =>
    this.db.transaction((carrier: string, receipts: readonly PartReceipt[]): PartReceiptMatch[] => {
      const { partsNamed, update } = this.sql();
      const rows = partsNamed.all(carrier, JSON.stringify(receipts.map((r) => r.partId)));
      if (rows.length === 0) return [];
      const byMessage = new Map<number, MessagePart[]>();
      const partsById = new Map<string, MessagePart>();
      const messageOf = new Map<MessagePart, number>();
      for (const row of rows) {
        const part = toPart(row);
        const list = byMessage.get(row.message_pk);
        if (list) list.push(part);
        else byMessage.set(row.message_pk, [part]);
        if (row.carrier === carrier) partsById.set(row.part_id, part);
        messageOf.set(part, row.message_pk);
      }
      const { changedParts, changedReceipts } = applyPartReceipts(partsById, effectiveReceipts(receipts));
      for (const part of changedParts) {
        const receipt = part.receipt!;
        update.run(receipt.status.groupId, receipt.status.id, receipt.errorId, flag(receipt.final), receipt.at, messageOf.get(part)!, part.number);
      }
      const matches: PartReceiptMatch[] = [];
      for (const [messagePk, parts] of byMessage) {
        const ids = new Set(parts.map((p) => p.partId));
        matches.push({ messagePk, parts, changed: changedReceipts.filter((r) => ids.has(r.partId)) });
      }
      return matches;
    }),
  );

  constructor(private readonly db: Db) {}

  /** Inside the caller's transaction: the parts of a message just marked submitted. */
  insertSubmitted(result: SubmitResult): void {
    const { insert } = this.sql();
    result.partIds!.forEach((partId, index) => insert.run(result.pk, index + 1, result.carrier, partId, result.at));
  }

  async recordReceipts(carrier: string, receipts: PartReceipt[]): Promise<PartReceiptMatch[]> {
    if (receipts.length === 0) return [];
    return this.recordTransaction().immediate(carrier, receipts);
  }

  async list(pks: number[]): Promise<Map<number, MessagePart[]>> {
    const out = new Map<number, MessagePart[]>();
    if (pks.length === 0) return out;
    for (const row of this.sql().partsOf.all(JSON.stringify(pks))) {
      const list = out.get(row.message_pk);
      if (list) list.push(toPart(row));
      else out.set(row.message_pk, [toPart(row)]);
    }
    return out;
  }
}
