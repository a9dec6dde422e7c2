import { applyPartReceipts } from '../part-receipts.js';
import type { MessagePart, MessagePartStore, PartReceipt, PartReceiptMatch, SubmitResult } from '../types.js';
import { toMessage } from './messages.js';
import type { Db, Fragment, Row, Sql } from './shared.js';

function toPart(row: Row): MessagePart {
  const part: MessagePart = { number: row.part_number, partId: row.part_id, submittedAt: row.submitted_at };
  if (row.status_group_id !== null && row.status_id !== null) {
    part.receipt = { status: { groupId: row.status_group_id, id: row.status_id }, errorId: row.error_id ?? 0, final: row.final, at: row.receipt_at ?? 0 };
  }
  return part;
}

/**
 * The insert of the parts of messages just marked submitted, for the statement that marks them:
 * only parts of messages whose pk `updated` returns. A message submitted again (its claim had
 * lapsed) replaces the parts of the earlier submit.
 */
export function partsInsert(sql: Db, results: readonly SubmitResult[], updated: Fragment): Fragment {
  const pks: number[] = [];
  const numbers: number[] = [];
  const carriers: string[] = [];
  const partIds: string[] = [];
  const ats: number[] = [];
  for (const result of results) {
    result.partIds?.forEach((partId, index) => {
      pks.push(result.pk);
      numbers.push(index + 1);
      carriers.push(result.carrier);
      partIds.push(partId);
      ats.push(result.at);
    });
  }
  return sql`
    INSERT INTO message_parts (message_pk, part_number, carrier, part_id, submitted_at)
    SELECT p.pk, p.n, p.carrier, p.part_id, p.at
    FROM unnest(${pks}::int8[], ${numbers}::int4[], ${carriers}::text[], ${partIds}::text[], ${ats}::int8[])
      AS p(pk, n, carrier, part_id, at)
    WHERE p.pk IN (${updated})
    ON CONFLICT (message_pk, part_number) DO UPDATE SET carrier = excluded.carrier, part_id = excluded.part_id,
      submitted_at = excluded.submitted_at, status_group_id = NULL, status_id = NULL, error_id = NULL,
      final = false, receipt_at = NULL`;
}

export class PgMessagePartStore implements MessagePartStore {
  constructor(private readonly sql: Sql) {}

  async recordReceipts(carrier: string, receipts: PartReceipt[]): Promise<PartReceiptMatch[]> {
    if (receipts.length === 0) return [];
    const named = receipts.map((r) => r.partId);
    return this.sql.begin(async (tx) => {
      // Every part of the messages named, locked in one order on every node: the node recording a
      // message's last receipt waits for the others and then sees their receipts.
      const rows = await tx`
        SELECT * FROM message_parts
        WHERE message_pk IN (SELECT message_pk FROM message_parts WHERE carrier = ${carrier} AND part_id = ANY(${named}::text[]))
        ORDER BY message_pk, part_number
        FOR UPDATE`;
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
      const { changedParts, changedReceipts } = applyPartReceipts(partsById, receipts);
      const changed = [...changedParts];
      const pks = [...byMessage.keys()];
      const messages = await tx`
        WITH upd AS (
          UPDATE message_parts p SET status_group_id = u.group_id, status_id = u.status_id, error_id = u.error_id,
            final = u.final = 1, receipt_at = u.at
          FROM unnest(
            ${changed.map((p) => messageOf.get(p)!)}::int8[], ${changed.map((p) => p.number)}::int4[],
            ${changed.map((p) => p.receipt!.status.groupId)}::int4[], ${changed.map((p) => p.receipt!.status.id)}::int4[],
            ${changed.map((p) => p.receipt!.errorId)}::int4[], ${changed.map((p) => (p.receipt!.final ? 1 : 0))}::int4[],
            ${changed.map((p) => p.receipt!.at)}::int8[]
          ) AS u(message_pk, part_number, group_id, status_id, error_id, final, at)
          WHERE p.message_pk = u.message_pk AND p.part_number = u.part_number
        )
        SELECT * FROM messages WHERE pk = ANY(${pks}::int8[]) ORDER BY pk`;
      return messages.map((row) => {
        const parts = byMessage.get(row.pk)!;
        const ids = new Set(parts.map((p) => p.partId));
        return { message: toMessage(row), parts, changed: changedReceipts.filter((r) => ids.has(r.partId)) };
      });
    });
  }

  async list(pks: number[]): Promise<Map<number, MessagePart[]>> {
    const out = new Map<number, MessagePart[]>();
    if (pks.length === 0) return out;
    const rows = await this.sql`SELECT * FROM message_parts WHERE message_pk = ANY(${pks}::int8[]) ORDER BY message_pk, part_number`;
    for (const row of rows) {
      const list = out.get(row.message_pk);
      if (list) list.push(toPart(row));
      else out.set(row.message_pk, [toPart(row)]);
    }
    return out;
  }
}
