import type postgres from 'postgres';
import { payloadsPerRow } from '../../outbox/outbox-packing.js';
import type { OutboxItemInput } from '../types.js';

/** Custom types registered on the pool: int8 and numeric come back as JS numbers. */
export type PgTypes = {
  bigint: number;
  numeric: number;
};

export type Sql = postgres.Sql<PgTypes>;
/** Either the pool or a transaction; every sub-store query works on both. */
export type Db = postgres.ISql<PgTypes>;
export type Fragment = postgres.PendingQuery<postgres.Row[]>;
export type Row = postgres.Row;

/** Column value for an optional field: undefined becomes SQL NULL. */
export const opt = <T>(value: T | undefined | null): T | null => (value === undefined ? null : value);

/** JSON text for a jsonb element of an unnest array (cast `::jsonb` in SQL); undefined becomes NULL. */
export const jsonText = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);

/** Joins conditions with AND. */
export function and(sql: Db, conditions: Fragment[]): Fragment {
  let out = conditions[0]!;
  for (let i = 1; i < conditions.length; i++) out = sql`${out} AND ${conditions[i]!}`;
  return out;
}

/**
 * `INSERT INTO outbox … SELECT … FROM unnest(…)` for a batch of items, as a fragment usable alone or
 * inside a CTE. Items are packed into rows per target and due time, split at the POST size, with
 * their payloads as one JSON array text in enqueue order (`packOutboxItems` does the same on
 * SQLite); a stream's item is a row of its own, due no earlier than the rows of its stream still
 * pending. With `tags`, item i carries
 * `tags.values[i]` and only items whose tag is among those `tags.source` selects (a fragment
 * selecting one column) are inserted, so packing sees only those.
 */
export function outboxInsert(
  sql: Db,
  items: OutboxItemInput[],
  tags?: { values: number[]; source: Fragment },
): Fragment {
  const n = items.length;
  const accountIds = new Array<string>(n);
  const urls = new Array<string>(n);
  const formats = new Array<string>(n);
  const payloads = new Array<string>(n);
  const securities = new Array<string | null>(n);
  const subscriptionIds = new Array<string | null>(n);
  const streams = new Array<string | null>(n);
  const createdAts = new Array<number>(n);
  const dueAts = new Array<number>(n);
  const perPost = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const item = items[i]!;
    accountIds[i] = item.accountId;
    urls[i] = item.url;
    formats[i] = item.format;
    payloads[i] = jsonText(item.payload) ?? 'null';
    securities[i] = jsonText(item.security);
    subscriptionIds[i] = opt(item.subscriptionId);
    streams[i] = opt(item.stream);
    createdAts[i] = item.createdAt;
    dueAts[i] = item.dueAt;
    perPost[i] = payloadsPerRow(item);
  }
  // An array, not `IN (subquery)`: a semi-join, which kept plans (postgres-store.ts) may only make
  // as a nested loop over the subquery's rows for every item.
  const filter = tags ? sql`WHERE i.tag = ANY(ARRAY(${tags.source}))` : sql``;
  return sql`
    INSERT INTO outbox (account_id, url, format, payloads, payload_count, security, subscription_id, stream, created_at, due_at)
    SELECT g.account_id, g.url, g.format, '[' || string_agg(g.payload, ',' ORDER BY g.ord) || ']', count(*),
           g.security::jsonb, g.subscription_id, g.stream, min(g.created_at),
           CASE WHEN g.stream IS NULL THEN g.due_at ELSE greatest(g.due_at, (
             SELECT max(e.due_at) FROM outbox e WHERE e.account_id = g.account_id AND e.stream = g.stream AND e.state = 'pending'
           )) END
    FROM (
      SELECT i.*, (row_number() OVER (
               PARTITION BY i.account_id, i.url, i.format, i.security, i.subscription_id, i.stream, i.due_at ORDER BY i.ord
             ) - 1) / i.per_post AS chunk
      FROM unnest(
        ${accountIds}::text[], ${urls}::text[], ${formats}::text[], ${payloads}::text[], ${securities}::text[],
        ${subscriptionIds}::text[], ${streams}::text[], ${createdAts}::int8[], ${dueAts}::int8[], ${perPost}::int8[],
        ${tags ? tags.values : new Array<number>(n).fill(0)}::int8[]
      ) WITH ORDINALITY AS i(account_id, url, format, payload, security, subscription_id, stream, created_at, due_at, per_post, tag, ord)
      ${filter}
    ) g
    GROUP BY g.account_id, g.url, g.format, g.security, g.subscription_id, g.stream, g.due_at, g.chunk
    ORDER BY min(g.ord)`;
}
