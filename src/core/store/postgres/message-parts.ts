import { effectiveReceipts } from '../part-receipts.js';
import type { MessagePart, MessagePartStore, PartReceipt, PartReceiptMatch, SubmitResult } from '../types.js';
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
 * only parts of messages whose pk `updated` returns (an array, not a semi-join: see outboxInsert).
 * A message submitted again (its claim had lapsed) replaces the parts of the earlier submit.
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
    WHERE p.pk = ANY(ARRAY(${updated}))
    ON CONFLICT (message_pk, part_number) DO UPDATE SET carrier = excluded.carrier, part_id = excluded.part_id,
      submitted_at = excluded.submitted_at, status_group_id = NULL, status_id = NULL, error_id = NULL,
      final = false, receipt_at = NULL`;
}

export class PgMessagePartStore implements MessagePartStore {
  constructor(private readonly sql: Sql) {}

  async recordReceipts(carrier: string, receipts: PartReceipt[]): Promise<PartReceiptMatch[]> {
    if (receipts.length === 0) return [];
    const effective = effectiveReceipts(receipts);
    const partIds = effective.map((r) => r.partId);
    // The same rule as applyPartReceipts, in one statement that commits on its own. `part_id = ANY`
    // repeats the join's condition for the index: joined with the unnest alone, the planner may
    // read all of the carrier's parts.
    const updated = await this.sql`
      UPDATE message_parts p SET status_group_id = u.group_id, status_id = u.status_id, error_id = u.error_id,
        final = u.final = 1, receipt_at = u.at
      FROM unnest(
        ${partIds}::text[], ${effective.map((r) => r.status.groupId)}::int4[],
        ${effective.map((r) => r.status.id)}::int4[], ${effective.map((r) => r.errorId)}::int4[],
        ${effective.map((r) => (r.final ? 1 : 0))}::int4[], ${effective.map((r) => r.at)}::int8[]
      ) AS u(part_id, group_id, status_id, error_id, final, at)
      WHERE p.part_id = ANY(${partIds}::text[]) AND p.carrier = ${carrier} AND p.part_id = u.part_id AND NOT p.final
        AND EXISTS (SELECT 1 FROM messages m WHERE m.pk = p.message_pk AND m.state <> 'final')
        AND (u.final = 1 OR p.status_group_id IS DISTINCT FROM u.group_id OR p.status_id IS DISTINCT FROM u.status_id
             OR p.error_id IS DISTINCT FROM u.error_id)
      RETURNING p.part_id`;
    // Read after that commit, so no row is locked: of two nodes recording the last parts of one
    // message at once, the one whose update commits second sees the other's here.
    const rows = await this.sql`
      SELECT * FROM message_parts
      WHERE message_pk = ANY(ARRAY(
        SELECT p.message_pk FROM message_parts p JOIN messages m ON m.pk = p.message_pk
        WHERE p.part_id = ANY(${partIds}::text[]) AND p.carrier = ${carrier} AND m.state <> 'final'))
      ORDER BY message_pk, part_number`;
    const changedIds = new Set(updated.map((r) => r.part_id as string));
    const changed = effective.filter((r) => changedIds.has(r.partId));
    const byMessage = new Map<number, MessagePart[]>();
    for (const row of rows) {
      const list = byMessage.get(row.message_pk);
      if (list) list.push(toPart(row));
      else byMessage.set(row.message_pk, [toPart(row)]);
    }
    return [...byMessage].map(([messagePk, parts]) => {
      const ids = new Set(parts.map((p) => p.partId));
      return { messagePk, parts, changed: changed.filter((r) => ids.has(r.partId)) };
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
