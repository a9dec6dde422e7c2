import type { InboundPartInput, InboundPartOutcome, InboundPartSet } from '../types.js';
import { preparedOnce, type Db } from './shared.js';

interface SetRow {
  account_id: string;
  set_key: string;
  from_number: string;
  to_number: string;
  total: number;
  first_at: number;
  done_at: number | null;
}

interface PartRow {
  account_id: string;
  set_key: string;
  seq: number;
  text: string;
  received_at: number;
}

/** The part sets of concatenated inbound messages (see InboundStore.addPart); run inside the caller's transactions. */
export class SqliteInboundParts {
  private readonly sql = preparedOnce(() => ({
    getSet: this.db.prepare<[string, string], SetRow>('SELECT * FROM inbound_part_sets WHERE account_id = ? AND set_key = ?'),
    insertSet: this.db.prepare<[string, string, string, string, number, number]>(
      'INSERT INTO inbound_part_sets (account_id, set_key, from_number, to_number, total, first_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    restartSet: this.db.prepare<[number, string, string]>('UPDATE inbound_part_sets SET done_at = NULL, first_at = ? WHERE account_id = ? AND set_key = ?'),
    markDone: this.db.prepare<[number, string, string]>(
      'UPDATE inbound_part_sets SET done_at = ? WHERE account_id = ? AND set_key = ? AND done_at IS NULL',
    ),
    getPart: this.db.prepare<[string, string, number], PartRow>('SELECT * FROM inbound_parts WHERE account_id = ? AND set_key = ? AND seq = ?'),
    putPart: this.db.prepare<[string, string, number, string, number]>(
      `INSERT INTO inbound_parts (account_id, set_key, seq, text, received_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id, set_key, seq) DO UPDATE SET text = excluded.text, received_at = excluded.received_at`,
    ),
    partsOf: this.db.prepare<[string, string], PartRow>('SELECT * FROM inbound_parts WHERE account_id = ? AND set_key = ? ORDER BY seq'),
    deleteParts: this.db.prepare<[string, string]>('DELETE FROM inbound_parts WHERE account_id = ? AND set_key = ?'),
    stale: this.db.prepare<[number, number], SetRow>(
      'SELECT * FROM inbound_part_sets WHERE done_at IS NULL AND first_at <= ? ORDER BY first_at LIMIT ?',
    ),
    purgeParts: this.db.prepare<[number]>(
      `DELETE FROM inbound_parts WHERE (account_id, set_key) IN (
         SELECT account_id, set_key FROM inbound_part_sets WHERE done_at IS NOT NULL AND done_at < ?)`,
    ),
    purgeSets: this.db.prepare<[number]>('DELETE FROM inbound_part_sets WHERE done_at IS NOT NULL AND done_at < ?'),
  }));

  constructor(private readonly db: Db) {}

  add(part: InboundPartInput): InboundPartOutcome {
    const { getSet, insertSet, restartSet, getPart, putPart, partsOf, deleteParts } = this.sql();
    const set = getSet.get(part.accountId, part.setKey);
    if (!set) {
      insertSet.run(part.accountId, part.setKey, part.from, part.to, part.total, part.receivedAt);
    } else if (set.done_at !== null) {
      if (getPart.get(part.accountId, part.setKey, part.seq)?.text === part.text) return { kind: 'repeat' };
      deleteParts.run(part.accountId, part.setKey);
      restartSet.run(part.receivedAt, part.accountId, part.setKey);
    }
    putPart.run(part.accountId, part.setKey, part.seq, part.text, part.receivedAt);
    const parts = partsOf.all(part.accountId, part.setKey);
    if (parts.length < part.total) return { kind: 'kept' };
    return { kind: 'complete', set: toSet(set ?? { account_id: part.accountId, set_key: part.setKey, from_number: part.from, to_number: part.to, total: part.total }, parts) };
  }

  /** False when the set was already done (its message is stored). */
  markDone(accountId: string, setKey: string, at: number): boolean {
    return this.sql().markDone.run(at, accountId, setKey).changes > 0;
  }

  stale(firstBy: number, limit: number): InboundPartSet[] {
    const { stale, partsOf } = this.sql();
    return stale.all(firstBy, limit).map((set) => toSet(set, partsOf.all(set.account_id, set.set_key)));
  }

  purgeDone(before: number): number {
    const { purgeParts, purgeSets } = this.sql();
    purgeParts.run(before);
    return purgeSets.run(before).changes;
  }
}

function toSet(set: Pick<SetRow, 'account_id' | 'set_key' | 'from_number' | 'to_number' | 'total'>, parts: PartRow[]): InboundPartSet {
  return {
    accountId: set.account_id,
    setKey: set.set_key,
    from: set.from_number,
    to: set.to_number,
    total: set.total,
    parts: parts.map((p) => ({ seq: p.seq, text: p.text, receivedAt: p.received_at })),
  };
}
