import type { OutboxItem, OutboxItemInput, OutboxStore, RetryOutcome, WebhookAttempt, WebhookTargetSummary } from '../types.js';
import { and, outboxInsert, type Row, type Sql } from './shared.js';
import { lastErrorOf } from '../attempt-error.js';

function toItem(r: Row): OutboxItem {
  const item: OutboxItem = {
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    format: r.format,
    payloads: r.payloads,
    payloadCount: r.payload_count,
    createdAt: r.created_at,
    dueAt: r.due_at,
    attempts: r.attempts,
    state: r.state,
  };
  if (r.security !== null) item.security = r.security;
  if (r.subscription_id !== null) item.subscriptionId = r.subscription_id;
  if (r.stream !== null) item.stream = r.stream;
  if (r.last_error !== null) item.lastError = r.last_error;
  return item;
}

function toAttempt(r: Row): WebhookAttempt {
  const a: WebhookAttempt = {
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    itemIds: r.item_ids,
    payloadCount: r.payload_count,
    attemptNo: r.attempt_no,
    startedAt: r.started_at,
    durationMs: r.duration_ms,
    outcome: r.outcome,
  };
  if (r.http_status !== null) a.httpStatus = r.http_status;
  if (r.error !== null) a.error = r.error;
  if (r.response_body !== null) a.responseBody = r.response_body;
  if (r.response_content_type !== null) a.responseContentType = r.response_content_type;
  return a;
}

/** What an item remembers of a failed attempt: the transport error, else the HTTP status. */

export class PgOutboxStore implements OutboxStore {
  constructor(private readonly sql: Sql) {}

  async enqueue(items: OutboxItemInput[]): Promise<void> {
    if (items.length === 0) return;
    await outboxInsert(this.sql, items);
  }

  async claimDue(now: number, limit: number, leaseUntil: number, nodeId?: string): Promise<OutboxItem[]> {
    if (limit <= 0) return [];
    // A claimed item stays `pending` with a lease; it is claimable again only once the lease expires.
    // A stream's row waits while an earlier row of its stream is pending (leased or not); a claimer
    // skipping a locked head still sees it pending, so it never takes the row behind it.
    const rows = await this.sql`
      UPDATE outbox SET lease_until = ${leaseUntil}, node_id = ${nodeId ?? null}
      WHERE id IN (
        SELECT o.id FROM outbox o
        WHERE o.state = 'pending' AND o.due_at <= ${now} AND (o.lease_until IS NULL OR o.lease_until < ${now})
          AND (o.stream IS NULL OR NOT EXISTS (
            SELECT 1 FROM outbox earlier
            WHERE earlier.account_id = o.account_id AND earlier.stream = o.stream
              AND earlier.state = 'pending' AND earlier.id < o.id))
        ORDER BY o.due_at, o.id
        LIMIT ${limit}
        FOR UPDATE OF o SKIP LOCKED)
      RETURNING *`;
    return rows.map(toItem).sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
  }

  async releaseLeases(nodeIds: string[], silentBefore: number): Promise<number> {
    if (nodeIds.length === 0) return 0;
    const rows = await this.sql`
      UPDATE outbox o SET lease_until = NULL
      WHERE o.state = 'pending' AND o.lease_until IS NOT NULL AND o.node_id = ANY(${nodeIds}::text[])
        AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = o.node_id AND n.beat_at >= ${silentBefore})
      RETURNING o.id`;
    return rows.length;
  }

  async nextDueAt(): Promise<number | undefined> {
    // Leased items are left out: a live sender settles them (and nudges what waits behind them), and
    // the items of a dead node come back through releaseLeases.
    const rows = await this.sql`SELECT min(due_at) AS due FROM outbox WHERE state = 'pending' AND lease_until IS NULL`;
    return rows[0]?.due ?? undefined;
  }

  async recordAttempt(
    attempt: Omit<WebhookAttempt, 'id'>,
    next: { state: 'delivered' } | { state: 'pending'; dueAt: number } | { state: 'failed' },
  ): Promise<void> {
    const a = attempt;
    const insertAttempt = this.sql`
      INSERT INTO webhook_attempts (account_id, url, item_ids, payload_count, attempt_no, started_at, duration_ms,
                                    http_status, error, outcome, response_body, response_content_type)
      VALUES (${a.accountId}, ${a.url}, ${a.itemIds}::int8[], ${a.payloadCount}, ${a.attemptNo}, ${a.startedAt}, ${a.durationMs},
              ${a.httpStatus ?? null}, ${a.error ?? null}, ${a.outcome}, ${a.responseBody ?? null}, ${a.responseContentType ?? null})`;
    const settle = this.sql`
      UPDATE outbox SET
        state = ${next.state},
        attempts = attempts + 1,
        last_error = ${lastErrorOf(a)},
        due_at = coalesce(${next.state === 'pending' ? next.dueAt : null}::int8, due_at),
        lease_until = NULL
      WHERE account_id = ${a.accountId} AND id = ANY(${a.itemIds}::int8[]) AND state = 'pending'`;
    // One statement, so the attempt and the item updates commit together.
    if (next.state !== 'pending') {
      await this.sql`WITH attempt AS (${insertAttempt}) ${settle}`;
      return;
    }
    // The later rows of a retried row's stream cannot go before it; moving them to its dueAt keeps
    // them out of the claim's due range instead of being passed over by every claim until then.
    await this.sql`
      WITH attempt AS (${insertAttempt}), settled AS (${settle} RETURNING id, stream)
      UPDATE outbox later SET due_at = ${next.dueAt}
      FROM settled
      WHERE settled.stream IS NOT NULL AND later.account_id = ${a.accountId} AND later.stream = settled.stream
        AND later.state = 'pending' AND later.id > settled.id AND later.due_at < ${next.dueAt}`;
  }

  async listAttempts(accountId: string, limit: number, beforeId?: number): Promise<WebhookAttempt[]> {
    const rows =
      beforeId === undefined
        ? await this.sql`
            SELECT * FROM webhook_attempts WHERE account_id = ${accountId} ORDER BY id DESC LIMIT ${limit}`
        : await this.sql`
            SELECT * FROM webhook_attempts WHERE account_id = ${accountId} AND id < ${beforeId}
            ORDER BY id DESC LIMIT ${limit}`;
    return rows.map(toAttempt);
  }

  async listItems(accountId: string, state: OutboxItem['state'] | undefined, limit: number, url?: string): Promise<OutboxItem[]> {
    const sql = this.sql;
    const where = [sql`account_id = ${accountId}`];
    if (state !== undefined) where.push(sql`state = ${state}`);
    if (url !== undefined) where.push(sql`url = ${url}`);
    const rows = await sql`SELECT * FROM outbox WHERE ${and(sql, where)} ORDER BY id DESC LIMIT ${limit}`;
    return rows.map(toItem);
  }

  async getItem(accountId: string, id: number): Promise<OutboxItem | undefined> {
    const [row] = await this.sql`SELECT * FROM outbox WHERE account_id = ${accountId} AND id = ${id}`;
    return row && toItem(row);
  }

  async attemptsOfItems(accountId: string, itemIds: number[], since: number): Promise<WebhookAttempt[]> {
    if (itemIds.length === 0) return [];
    const rows = await this.sql`
      SELECT * FROM webhook_attempts
      WHERE started_at >= ${since} AND account_id = ${accountId} AND item_ids && ${itemIds}::int8[]
      ORDER BY id`;
    return rows.map(toAttempt);
  }

  async itemsCarrying(accountId: string, messageId: string, window: { since: number; until: number }, limit: number): Promise<OutboxItem[]> {
    const needle = `"messageId":${JSON.stringify(messageId)}`;
    const rows = await this.sql`
      SELECT * FROM outbox
      WHERE account_id = ${accountId} AND created_at BETWEEN ${window.since} AND ${window.until} AND strpos(payloads, ${needle}) > 0
      ORDER BY id LIMIT ${limit}`;
    return rows.map(toItem);
  }

  async retryNow(accountId: string, id: number, now: number): Promise<RetryOutcome> {
    return this.sql.begin(async (tx) => {
      const [row] = await tx`SELECT * FROM outbox WHERE account_id = ${accountId} AND id = ${id} FOR UPDATE`;
      if (!row) return { kind: 'unknown' } as const;
      if (row.state === 'delivered') return { kind: 'delivered', item: toItem(row) } as const;
      const [updated] =
        row.state === 'failed'
          ? await tx`
              UPDATE outbox SET state = 'pending', due_at = ${now}, lease_until = NULL
              WHERE account_id = ${accountId} AND id = ${id} RETURNING *`
          : await tx`
              UPDATE outbox SET due_at = least(due_at, ${now}) WHERE account_id = ${accountId} AND id = ${id} RETURNING *`;
      if (row.stream !== null) {
        await tx`
          UPDATE outbox SET due_at = least(due_at, ${now})
          WHERE account_id = ${accountId} AND stream = ${row.stream} AND state = 'pending' AND id > ${id}`;
      }
      return { kind: 'retried', item: toItem(updated!) } as const;
    });
  }

  async targets(accountId: string): Promise<WebhookTargetSummary[]> {
    const [counts, last] = await Promise.all([
      this.sql`
        SELECT url, count(*) FILTER (WHERE state = 'pending')::int8 AS pending, count(*) FILTER (WHERE state = 'failed')::int8 AS failed,
               count(*) FILTER (WHERE state = 'delivered')::int8 AS delivered,
               count(*) FILTER (WHERE state = 'pending' AND attempts > 0)::int8 AS retrying
        FROM outbox WHERE account_id = ${accountId} GROUP BY url`,
      this.sql`
        SELECT DISTINCT ON (url) url, started_at, outcome, http_status, error FROM webhook_attempts
        WHERE account_id = ${accountId} ORDER BY url, id DESC`,
    ]);
    const byUrl = new Map<string, WebhookTargetSummary>();
    for (const r of counts) byUrl.set(r.url, { url: r.url, pending: r.pending, failed: r.failed, delivered: r.delivered, retrying: r.retrying });
    for (const r of last) {
      let target = byUrl.get(r.url);
      if (!target) byUrl.set(r.url, (target = { url: r.url, pending: 0, failed: 0, delivered: 0, retrying: 0 }));
      target.lastAttempt = { startedAt: r.started_at, outcome: r.outcome };
      if (r.http_status !== null) target.lastAttempt.httpStatus = r.http_status;
      if (r.error !== null) target.lastAttempt.error = r.error;
    }
    return [...byUrl.values()];
  }

  async countByState(): Promise<Record<OutboxItem['state'], number>> {
    const rows = await this.sql`SELECT state, sum(payload_count) AS n FROM outbox GROUP BY state`;
    const counts: Record<OutboxItem['state'], number> = { pending: 0, delivered: 0, failed: 0 };
    for (const r of rows) counts[r.state as OutboxItem['state']] = r.n;
    return counts;
  }
}
