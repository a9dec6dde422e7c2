import type { OutboxItem, RetryOutcome, WebhookAttempt, WebhookTargetSummary } from '../types.js';
import { toAttempt, toItem, type AttemptRow, type OutboxRow } from './outbox-rows.js';
import { nullToUndefined, preparedOnce, type Db } from './shared.js';

interface TargetRow {
  url: string;
  pending: number;
  failed: number;
  delivered: number;
  retrying: number;
}

/** What the console reads of the outbox, and its one write: an item retried now. */
export class OutboxReads {
  private readonly sql = preparedOnce(() => ({
    get: this.db.prepare<[string, number], OutboxRow>('SELECT * FROM outbox WHERE account_id = ? AND id = ?'),
    // webhook_attempts_started bounds the walk to the attempts made since the items were.
    attemptsOf: this.db.prepare<{ accountId: string; ids: string; since: number }, AttemptRow>(
      `SELECT * FROM webhook_attempts
       WHERE started_at >= @since AND account_id = @accountId
         AND EXISTS (SELECT 1 FROM json_each(item_ids) WHERE value IN (SELECT value FROM json_each(@ids)))
       ORDER BY id`,
    ),
    carrying: this.db.prepare<{ accountId: string; needle: string; since: number; until: number; limit: number }, OutboxRow>(
      `SELECT * FROM outbox INDEXED BY outbox_account_created
       WHERE account_id = @accountId AND created_at BETWEEN @since AND @until AND instr(payloads, @needle) > 0
       ORDER BY id LIMIT @limit`,
    ),
    revive: this.db.prepare<{ accountId: string; id: number; now: number }>(
      `UPDATE outbox SET state = 'pending', due_at = @now, lease_until = NULL
       WHERE account_id = @accountId AND id = @id AND state = 'failed'`,
    ),
    hurry: this.db.prepare<{ accountId: string; id: number; now: number }>(
      `UPDATE outbox SET due_at = min(due_at, @now) WHERE account_id = @accountId AND id = @id AND state = 'pending'`,
    ),
    hurryStream: this.db.prepare<{ accountId: string; stream: string; id: number; now: number }>(
      `UPDATE outbox SET due_at = min(due_at, @now)
       WHERE account_id = @accountId AND stream = @stream AND state = 'pending' AND id > @id`,
    ),
    targets: this.db.prepare<[string], TargetRow>(
      `SELECT url, sum(state = 'pending') AS pending, sum(state = 'failed') AS failed, sum(state = 'delivered') AS delivered,
              sum(state = 'pending' AND attempts > 0) AS retrying
       FROM outbox WHERE account_id = ? GROUP BY url`,
    ),
    lastAttempts: this.db.prepare<[string, string], AttemptRow>(
      `SELECT * FROM webhook_attempts WHERE account_id = ? AND id IN (
         SELECT max(id) FROM webhook_attempts WHERE account_id = ? GROUP BY url)`,
    ),
  }));

  private readonly retryTransaction = preparedOnce(() =>
    this.db.transaction((accountId: string, id: number, now: number): RetryOutcome => {
      const { get, revive, hurry, hurryStream } = this.sql();
      const row = get.get(accountId, id);
      if (!row) return { kind: 'unknown' };
      if (row.state === 'delivered') return { kind: 'delivered', item: toItem(row) };
      (row.state === 'failed' ? revive : hurry).run({ accountId, id, now });
      if (row.stream !== null) hurryStream.run({ accountId, stream: row.stream, id, now });
      return { kind: 'retried', item: toItem(get.get(accountId, id)!) };
    }),
  );

  constructor(private readonly db: Db) {}

  getItem(accountId: string, id: number): OutboxItem | undefined {
    const row = this.sql().get.get(accountId, id);
    return row && toItem(row);
  }

  attemptsOfItems(accountId: string, itemIds: number[], since: number): WebhookAttempt[] {
    if (itemIds.length === 0) return [];
    return this.sql().attemptsOf.all({ accountId, ids: JSON.stringify(itemIds), since }).map(toAttempt);
  }

  itemsCarrying(accountId: string, messageId: string, window: { since: number; until: number }, limit: number): OutboxItem[] {
    const needle = `"messageId":${JSON.stringify(messageId)}`;
    return this.sql().carrying.all({ accountId, needle, since: window.since, until: window.until, limit }).map(toItem);
  }

  /** Runs in the caller's lock-free write (withoutBlockingOnLocks). */
  retryNow(accountId: string, id: number, now: number): RetryOutcome {
    return this.retryTransaction().immediate(accountId, id, now);
  }

  targets(accountId: string): WebhookTargetSummary[] {
    const { targets, lastAttempts } = this.sql();
    const byUrl = new Map<string, WebhookTargetSummary>();
    for (const row of targets.all(accountId)) byUrl.set(row.url, { ...row });
    for (const attempt of lastAttempts.all(accountId, accountId)) {
      let target = byUrl.get(attempt.url);
      if (!target) byUrl.set(attempt.url, (target = { url: attempt.url, pending: 0, failed: 0, delivered: 0, retrying: 0 }));
      target.lastAttempt = { startedAt: attempt.started_at, outcome: attempt.outcome };
      const httpStatus = nullToUndefined(attempt.http_status);
      const error = nullToUndefined(attempt.error);
      if (httpStatus !== undefined) target.lastAttempt.httpStatus = httpStatus;
      if (error !== undefined) target.lastAttempt.error = error;
    }
    return [...byUrl.values()];
  }
}
