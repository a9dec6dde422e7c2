import { packOutboxItems } from '../../outbox/outbox-packing.js';
import type { OutboxItem, OutboxItemInput, OutboxStore, RetryOutcome, WebhookAttempt, WebhookTargetSummary } from '../types.js';
import { jsonOrNull, orNull, preparedOnce, withoutBlockingOnLocks, type Db } from './shared.js';
import { lastErrorOf } from '../attempt-error.js';
import { OutboxReads } from './outbox-reads.js';
import { toAttempt, toItem, type AttemptRow, type NextState, type OutboxRow } from './outbox-rows.js';

export class SqliteOutboxStore implements OutboxStore {
  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare(
      `INSERT INTO outbox (account_id, url, format, payloads, payload_count, security, subscription_id, created_at, due_at)
       VALUES (@accountId, @url, @format, @payloads, @payloadCount, @security, @subscriptionId, @createdAt, @dueAt)`,
    ),
    // A stream's row is due no earlier than the rows of its stream still pending before it.
    insertInStream: this.db.prepare(
      `INSERT INTO outbox (account_id, url, format, payloads, payload_count, security, subscription_id, stream, created_at, due_at)
       VALUES (@accountId, @url, @format, @payloads, @payloadCount, @security, @subscriptionId, @stream, @createdAt,
               max(@dueAt, coalesce((SELECT max(due_at) FROM outbox
                                     WHERE account_id = @accountId AND stream = @stream AND state = 'pending'), @dueAt)))`,
    ),
    // Leased items stay `pending`; the lease alone keeps a second sender off them until it expires.
    // A stream's row waits while an earlier row of its stream is pending (leased or not).
    claim: this.db.prepare<{ now: number; limit: number; leaseUntil: number; nodeId: string | null }, OutboxRow>(
      `UPDATE outbox SET lease_until = @leaseUntil, node_id = @nodeId
       WHERE id IN (
         SELECT o.id FROM outbox o
         WHERE o.state = 'pending' AND o.due_at <= @now AND (o.lease_until IS NULL OR o.lease_until < @now)
           AND (o.stream IS NULL OR NOT EXISTS (
             SELECT 1 FROM outbox earlier
             WHERE earlier.account_id = o.account_id AND earlier.stream = o.stream
               AND earlier.state = 'pending' AND earlier.id < o.id))
         ORDER BY o.due_at, o.id LIMIT @limit)
       RETURNING *`,
    ),
    releaseLeases: this.db.prepare<{ nodeIds: string; silentBefore: number }>(
      `UPDATE outbox SET lease_until = NULL
       WHERE state = 'pending' AND lease_until IS NOT NULL AND node_id IN (SELECT value FROM json_each(@nodeIds))
         AND NOT EXISTS (SELECT 1 FROM nodes WHERE nodes.id = outbox.node_id AND nodes.beat_at >= @silentBefore)`,
    ),
    // Leased items are left out: a live sender settles them (and nudges what waits behind them), and
    // the items of a dead node come back through releaseLeases.
    nextDue: this.db
      .prepare<[], number | null>(
        "SELECT min(due_at) FROM outbox INDEXED BY outbox_pending_due WHERE state = 'pending' AND lease_until IS NULL",
      )
      .pluck(),
    insertAttempt: this.db.prepare(
      `INSERT INTO webhook_attempts
         (account_id, url, item_ids, payload_count, attempt_no, started_at, duration_ms, http_status, error, outcome,
          response_body, response_content_type)
       VALUES (@accountId, @url, @itemIds, @payloadCount, @attemptNo, @startedAt, @durationMs, @httpStatus, @error, @outcome,
               @responseBody, @responseContentType)`,
    ),
    // Only pending items move: a late duplicate attempt must not undo a delivery.
    settleItem: this.db.prepare<Record<string, unknown>, { stream: string | null }>(
      `UPDATE outbox
       SET attempts = attempts + 1, state = @state, due_at = coalesce(@dueAt, due_at),
           last_error = @lastError, lease_until = NULL
       WHERE id = @id AND account_id = @accountId AND state = 'pending'
       RETURNING stream`,
    ),
    // The later rows of a retried row's stream cannot go before it; moving them to its dueAt keeps
    // them out of the claim's due range instead of being passed over by every claim until then.
    holdStream: this.db.prepare(
      `UPDATE outbox SET due_at = max(due_at, @dueAt)
       WHERE account_id = @accountId AND stream = @stream AND state = 'pending' AND id > @id`,
    ),
    attempts: this.db.prepare<[string, number, number], AttemptRow>(
      'SELECT * FROM webhook_attempts WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?',
    ),
    // A NULL filter matches every row: one statement serves each combination of state and url.
    items: this.db.prepare<{ accountId: string; state: string | null; url: string | null; limit: number }, OutboxRow>(
      `SELECT * FROM outbox WHERE account_id = @accountId AND (@state IS NULL OR state = @state) AND (@url IS NULL OR url = @url)
       ORDER BY id DESC LIMIT @limit`,
    ),
    countByState: this.db.prepare<[], { state: OutboxItem['state']; count: number }>(
      'SELECT state, sum(payload_count) AS count FROM outbox GROUP BY state',
    ),
  }));

  private readonly enqueueTransaction = preparedOnce(() =>
    this.db.transaction((items: readonly OutboxItemInput[]) => this.insertItems(items)),
  );

  private readonly claimTransaction = preparedOnce(() =>
    this.db.transaction((now: number, limit: number, leaseUntil: number, nodeId: string | null) =>
      this.sql().claim.all({ now, limit, leaseUntil, nodeId }),
    ),
  );

  private readonly recordTransaction = preparedOnce(() =>
    this.db.transaction((attempt: Omit<WebhookAttempt, 'id'>, next: NextState) => {
      const { insertAttempt, settleItem, holdStream } = this.sql();
      insertAttempt.run({
        accountId: attempt.accountId,
        url: attempt.url,
        itemIds: JSON.stringify(attempt.itemIds),
        payloadCount: attempt.payloadCount,
        attemptNo: attempt.attemptNo,
        startedAt: attempt.startedAt,
        durationMs: attempt.durationMs,
        httpStatus: orNull(attempt.httpStatus),
        error: orNull(attempt.error),
        outcome: attempt.outcome,
        responseBody: orNull(attempt.responseBody),
        responseContentType: orNull(attempt.responseContentType),
      });
      const lastError = lastErrorOf(attempt);
      const dueAt = next.state === 'pending' ? next.dueAt : null;
      for (const id of attempt.itemIds) {
        const settled = settleItem.get({ id, accountId: attempt.accountId, state: next.state, dueAt, lastError });
        if (dueAt !== null && settled !== undefined && settled.stream !== null) {
          holdStream.run({ accountId: attempt.accountId, stream: settled.stream, id, dueAt });
        }
      }
    }),
  );

  private readonly reads: OutboxReads;

  constructor(private readonly db: Db) {
    this.reads = new OutboxReads(db);
  }

  /**
   * Inserts items inside the caller's transaction, packed into rows per target; other sub-stores
   * enqueue webhooks through this.
   */
  insertItems(items: readonly OutboxItemInput[]): void {
    if (items.length === 0) return;
    const { insert, insertInStream } = this.sql();
    for (const row of packOutboxItems(items)) {
      const values = {
        accountId: row.accountId,
        url: row.url,
        format: row.format,
        payloads: row.payloads,
        payloadCount: row.payloadCount,
        security: jsonOrNull(row.security),
        subscriptionId: orNull(row.subscriptionId),
        createdAt: row.createdAt,
        dueAt: row.dueAt,
      };
      if (row.stream === undefined) insert.run(values);
      else insertInStream.run({ ...values, stream: row.stream });
    }
  }

  async enqueue(items: OutboxItemInput[]): Promise<void> {
    this.enqueueTransaction().immediate(items);
  }

  async claimDue(now: number, limit: number, leaseUntil: number, nodeId?: string): Promise<OutboxItem[]> {
    // SQLite reads a negative LIMIT as "no limit".
    if (limit <= 0) return [];
    const rows = this.claimTransaction().immediate(now, limit, leaseUntil, nodeId ?? null);
    return rows.sort((a, b) => a.due_at - b.due_at || a.id - b.id).map(toItem);
  }

  async releaseLeases(nodeIds: string[], silentBefore: number): Promise<number> {
    if (nodeIds.length === 0) return 0;
    return this.sql().releaseLeases.run({ nodeIds: JSON.stringify(nodeIds), silentBefore }).changes;
  }

  async nextDueAt(): Promise<number | undefined> {
    return this.sql().nextDue.get() ?? undefined;
  }

  async recordAttempt(attempt: Omit<WebhookAttempt, 'id'>, next: NextState): Promise<void> {
    this.recordTransaction().immediate(attempt, next);
  }

  async listAttempts(accountId: string, limit: number, beforeId?: number): Promise<WebhookAttempt[]> {
    return this.sql().attempts.all(accountId, beforeId ?? Number.MAX_SAFE_INTEGER, limit).map(toAttempt);
  }

  async listItems(accountId: string, state: OutboxItem['state'] | undefined, limit: number, url?: string): Promise<OutboxItem[]> {
    return this.sql().items.all({ accountId, state: orNull(state), url: orNull(url), limit }).map(toItem);
  }

  async getItem(accountId: string, id: number): Promise<OutboxItem | undefined> {
    return this.reads.getItem(accountId, id);
  }

  async attemptsOfItems(accountId: string, itemIds: number[], since: number): Promise<WebhookAttempt[]> {
    return this.reads.attemptsOfItems(accountId, itemIds, since);
  }

  async itemsCarrying(accountId: string, messageId: string, window: { since: number; until: number }, limit: number): Promise<OutboxItem[]> {
    return this.reads.itemsCarrying(accountId, messageId, window, limit);
  }

  async retryNow(accountId: string, id: number, now: number): Promise<RetryOutcome> {
    return withoutBlockingOnLocks(this.db, () => this.reads.retryNow(accountId, id, now));
  }

  async targets(accountId: string): Promise<WebhookTargetSummary[]> {
    return this.reads.targets(accountId);
  }

  async countByState(): Promise<Record<OutboxItem['state'], number>> {
    const counts: Record<OutboxItem['state'], number> = { pending: 0, delivered: 0, failed: 0 };
    for (const row of this.sql().countByState.all()) counts[row.state] = row.count;
    return counts;
  }
}
