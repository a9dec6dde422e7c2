import type { InboundPartInput, InboundPartOutcome, InboundPartSet } from '../types.js';
import type { Row, Sql } from './shared.js';

const toSet = (set: Row, parts: readonly Row[]): InboundPartSet => ({
  accountId: set.account_id,
  setKey: set.set_key,
  from: set.from_number,
  to: set.to_number,
  total: set.total,
  parts: parts.map((p) => ({ seq: p.seq, text: p.text, receivedAt: p.received_at })),
});

/** The part sets of concatenated inbound messages (see InboundStore.addPart). */
export class PgInboundParts {
  constructor(private readonly sql: Sql) {}

  add(part: InboundPartInput): Promise<InboundPartOutcome> {
    const { accountId, setKey } = part;
    return this.sql.begin(async (tx): Promise<InboundPartOutcome> => {
      // The upsert locks the set's row until commit: a node adding another part of it waits, and
      // then sees this one.
      const [set] = await tx`
        INSERT INTO inbound_part_sets (account_id, set_key, from_number, to_number, total, first_at)
        VALUES (${accountId}, ${setKey}, ${part.from}, ${part.to}, ${part.total}, ${part.receivedAt})
        ON CONFLICT (account_id, set_key) DO UPDATE SET total = inbound_part_sets.total
        RETURNING *`;
      if (set!.done_at !== null) {
        const [stored] = await tx`SELECT text FROM inbound_parts WHERE account_id = ${accountId} AND set_key = ${setKey} AND seq = ${part.seq}`;
        if (stored?.text === part.text) return { kind: 'repeat' };
        await tx`DELETE FROM inbound_parts WHERE account_id = ${accountId} AND set_key = ${setKey}`;
        await tx`UPDATE inbound_part_sets SET done_at = NULL, first_at = ${part.receivedAt} WHERE account_id = ${accountId} AND set_key = ${setKey}`;
      }
      const parts = await tx`
        WITH put AS (
          INSERT INTO inbound_parts (account_id, set_key, seq, text, received_at)
          VALUES (${accountId}, ${setKey}, ${part.seq}, ${part.text}, ${part.receivedAt})
          ON CONFLICT (account_id, set_key, seq) DO UPDATE SET text = excluded.text, received_at = excluded.received_at
          RETURNING seq, text, received_at
        )
        SELECT seq, text, received_at FROM put
        UNION ALL
        SELECT seq, text, received_at FROM inbound_parts
        WHERE account_id = ${accountId} AND set_key = ${setKey} AND seq <> ${part.seq}
        ORDER BY seq`;
      if (parts.length < part.total) return { kind: 'kept' };
      return { kind: 'complete', set: toSet(set!, parts) };
    });
  }

  async stale(firstBy: number, limit: number): Promise<InboundPartSet[]> {
    const sets = await this.sql`
      SELECT * FROM inbound_part_sets WHERE done_at IS NULL AND first_at <= ${firstBy} ORDER BY first_at LIMIT ${limit}`;
    if (sets.length === 0) return [];
    const parts = await this.sql`
      SELECT p.* FROM inbound_parts p
      JOIN unnest(${sets.map((s) => s.account_id)}::text[], ${sets.map((s) => s.set_key)}::text[]) AS k(account_id, set_key)
        ON p.account_id = k.account_id AND p.set_key = k.set_key
      ORDER BY p.seq`;
    return sets.map((set) => toSet(set, parts.filter((p) => p.account_id === set.account_id && p.set_key === set.set_key)));
  }

  async purgeDone(before: number): Promise<number> {
    const rows = await this.sql`
      WITH gone AS (
        DELETE FROM inbound_part_sets WHERE done_at IS NOT NULL AND done_at < ${before} RETURNING account_id, set_key
      ), parts_gone AS (
        DELETE FROM inbound_parts p USING gone WHERE p.account_id = gone.account_id AND p.set_key = gone.set_key
      )
      SELECT count(*) AS n FROM gone`;
    return rows[0]!.n;
  }
}
