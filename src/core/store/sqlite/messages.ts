import type {
  ClaimedMessage,
  MessageBrowseFilter,
  MessageLogFilter,
  MessageStore,
  MessageSummary,
  NewMessage,
  OutboxItemInput,
  StatusChange,
  StoredMessage,
  SubmitResult,
} from '../types.js';
import { MessageBrowseQuery } from './message-browse.js';
import { MessageLogQuery } from './message-logs.js';
import {
  MESSAGE_INSERT_SQL,
  toClaimedMessage,
  toInsertParams,
  toStoredMessage,
  type MessageInsertParams,
  type MessageRow,
} from './message-rows.js';
import type { SqliteMessagePartStore } from './message-parts.js';
import type { SqliteOutboxStore } from './outbox.js';
import { flag, orNull, preparedOnce, rowId, withoutBlockingOnLocks, type Db } from './shared.js';

const byDueThenPk = (a: MessageRow, b: MessageRow): number => a.due_at - b.due_at || a.pk - b.pk;

export class SqliteMessageStore implements MessageStore {
  private readonly logQuery: MessageLogQuery;
  private readonly browseQuery: MessageBrowseQuery;

  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare<MessageInsertParams>(MESSAGE_INSERT_SQL),
    existing: this.db
      .prepare<[string, string], string>(
        'SELECT message_id FROM messages WHERE account_id = ? AND message_id IN (SELECT value FROM json_each(?))',
      )
      .pluck(),
    get: this.db.prepare<[string, string], MessageRow>('SELECT * FROM messages WHERE account_id = ? AND message_id = ?'),
    // A read needs no lock: with nothing due, a claim does not take the write lock acceptance needs.
    anyDue: this.db
      .prepare<{ now: number }, number>(
        `SELECT EXISTS (SELECT 1 FROM messages WHERE state = 'queued' AND due_at <= @now)
             OR EXISTS (SELECT 1 FROM messages WHERE state = 'dispatching' AND lease_until < @now)`,
      )
      .pluck(),
    // Each branch walks its partial index in order and stops at the limit, so a large backlog is
    // never sorted as a whole: queued messages by (due_at, pk), lapsed leases by lease_until.
    claim: this.db.prepare<{ now: number; limit: number; leaseUntil: number; nodeId: string | null }, MessageRow>(
      `UPDATE messages SET state = 'dispatching', lease_until = @leaseUntil, attempts = attempts + 1, node_id = @nodeId
       WHERE pk IN (
         SELECT pk FROM (
           SELECT * FROM (SELECT pk, due_at FROM messages WHERE state = 'queued' AND due_at <= @now
                          ORDER BY due_at, pk LIMIT @limit)
           UNION ALL
           SELECT * FROM (SELECT pk, due_at FROM messages WHERE state = 'dispatching' AND lease_until < @now
                          ORDER BY lease_until LIMIT @limit))
         ORDER BY due_at, pk LIMIT @limit)
       RETURNING *`,
    ),
    release: this.db.prepare<[number, string, string]>(
      "UPDATE messages SET due_at = ? WHERE account_id = ? AND message_id = ? AND state = 'queued'",
    ),
    requeue: this.db.prepare<[number, string, number]>(
      `UPDATE messages SET state = 'queued', due_at = ?, lease_until = NULL
       WHERE account_id = ? AND pk = ? AND state = 'dispatching'`,
    ),
    markSubmitted: this.db.prepare<[string, string, number, string | null, string, number]>(
      `UPDATE messages SET state = 'submitted', carrier = ?, carrier_message_id = ?, sent_at = ?, lease_until = NULL, node_id = ?
       WHERE account_id = ? AND pk = ? AND state <> 'final'`,
    ),
    releaseClaims: this.db.prepare<{ nodeIds: string; silentBefore: number }>(
      `UPDATE messages SET state = 'queued', lease_until = NULL, node_id = NULL
       WHERE state = 'dispatching' AND node_id IN (SELECT value FROM json_each(@nodeIds))
         AND NOT EXISTS (SELECT 1 FROM nodes WHERE nodes.id = messages.node_id AND nodes.beat_at >= @silentBefore)`,
    ),
    adoptSubmitted: this.db.prepare<
      { carrier: string; nodeIds: string; silentBefore: number; nodeId: string; limit: number; afterPk: number },
      MessageRow
    >(
      `UPDATE messages SET node_id = @nodeId
       WHERE pk IN (
         SELECT pk FROM messages INDEXED BY messages_submitted_carrier
         WHERE state = 'submitted' AND carrier = @carrier AND pk > @afterPk
           AND node_id IN (SELECT value FROM json_each(@nodeIds))
           AND NOT EXISTS (SELECT 1 FROM nodes WHERE nodes.id = messages.node_id AND nodes.beat_at >= @silentBefore)
         ORDER BY pk LIMIT @limit)
       RETURNING *`,
    ),
    nextDue: this.db
      .prepare<[], number | null>(
        `SELECT min(due) FROM (
           SELECT min(due_at) AS due FROM messages INDEXED BY messages_queued_due WHERE state = 'queued'
           UNION ALL SELECT min(lease_until) FROM messages INDEXED BY messages_dispatching_lease WHERE state = 'dispatching'
           UNION ALL SELECT min(valid_until) FROM messages INDEXED BY messages_submitted_valid WHERE state = 'submitted')`,
      )
      .pluck(),
    listSubmitted: this.db.prepare<[string, number, number], MessageRow>(
      `SELECT * FROM messages WHERE state = 'submitted' AND carrier = ? AND pk > ? ORDER BY pk LIMIT ?`,
    ),
    listOverdue: this.db.prepare<[number, number], MessageRow>(
      // INDEXED BY: without statistics the planner would prefer the far less selective state index.
      `SELECT * FROM messages INDEXED BY messages_submitted_valid
       WHERE state = 'submitted' AND valid_until < ? ORDER BY valid_until, pk LIMIT ?`,
    ),
    byCarrierIds: this.db.prepare<[string, string], MessageRow>(
      // INDEXED BY: without statistics the planner would walk all of the carrier's submitted messages.
      `SELECT * FROM messages INDEXED BY messages_carrier_id
       WHERE state = 'submitted' AND carrier = ? AND carrier_message_id IN (SELECT value FROM json_each(?))
       ORDER BY pk`,
    ),
    // Final is final: the state guard makes a late or duplicate receipt a no-op (changes = 0).
    // Positional parameters (see MESSAGE_INSERT_SQL); `final` is passed once per use.
    applyStatus: this.db.prepare<
      [
        groupId: number,
        statusId: number,
        errorId: number,
        mccMnc: string | null,
        carrier: string | null,
        carrierMessageId: string | null,
        sentAt: number | null,
        final: 0 | 1,
        final: 0 | 1,
        at: number,
        final: 0 | 1,
        final: 0 | 1,
        pullReport: 0 | 1,
        phoneNumber: string | null,
        phoneAt: number | null,
        accountId: string,
        pk: number,
      ]
    >(
      `UPDATE messages SET status_group_id = ?, status_id = ?, error_id = ?,
         mcc_mnc = coalesce(?, mcc_mnc),
         carrier = coalesce(?, carrier),
         carrier_message_id = coalesce(?, carrier_message_id),
         sent_at = coalesce(?, sent_at),
         state = CASE WHEN ? THEN 'final' ELSE state END,
         done_at = CASE WHEN ? THEN ? ELSE done_at END,
         lease_until = CASE WHEN ? THEN NULL ELSE lease_until END,
         node_id = CASE WHEN ? THEN NULL ELSE node_id END,
         report_pending = CASE WHEN ? THEN 1 ELSE report_pending END,
         phone_number = coalesce(?, phone_number),
         phone_at = coalesce(?, phone_at)
       WHERE account_id = ? AND pk = ? AND state <> 'final'`,
    ),
    // Messages rejected at acceptance are final without a done_at; their acceptance time counts.
    // A message whose pull report is still pending stays until the report is consumed.
    purgeMessages: this.db.prepare<[number]>(
      `DELETE FROM messages INDEXED BY messages_final_done
       WHERE state = 'final' AND coalesce(done_at, created_at) < ? AND report_pending IS NULL`,
    ),
    purgeParts: this.db.prepare<[number]>(
      `DELETE FROM message_parts WHERE message_pk IN (
         SELECT pk FROM messages INDEXED BY messages_final_done
         WHERE state = 'final' AND coalesce(done_at, created_at) < ? AND report_pending IS NULL AND message_count > 1)`,
    ),
    purgeInbound: this.db.prepare<[number]>(
      'DELETE FROM inbound WHERE received_at < ? AND (consumed_at IS NOT NULL OR pullable = 0)',
    ),
    purgeOutbox: this.db.prepare<[number]>("DELETE FROM outbox WHERE state <> 'pending' AND created_at < ?"),
    purgeAttempts: this.db.prepare<[number]>('DELETE FROM webhook_attempts WHERE started_at < ?'),
  }));

  private readonly transactions = preparedOnce(() => ({
    insertMany: this.db.transaction((messages: readonly NewMessage[]): Array<number | 'duplicate'> => {
      const { insert } = this.sql();
      return messages.map((message) => {
        const result = insert.run(...toInsertParams(message));
        return result.changes === 1 ? rowId(result) : 'duplicate';
      });
    }),
    claim: this.db.transaction((now: number, limit: number, leaseUntil: number, nodeId: string | null) =>
      this.sql().claim.all({ now, limit, leaseUntil, nodeId }),
    ),
    requeue: this.db.transaction((items: ReadonlyArray<{ accountId: string; pk: number; dueAt: number }>) => {
      const { requeue } = this.sql();
      for (const item of items) requeue.run(item.dueAt, item.accountId, item.pk);
    }),
    markSubmitted: this.db.transaction((results: readonly SubmitResult[], nodeId: string | null) => {
      const { markSubmitted } = this.sql();
      for (const r of results) {
        const { changes } = markSubmitted.run(r.carrier, r.carrierMessageId, r.at, nodeId, r.accountId, r.pk);
        if (changes > 0 && r.partIds) this.parts.insertSubmitted(r);
      }
    }),
    applyStatusChanges: this.db.transaction((changes: readonly StatusChange[]) => {
      const { applyStatus, insert, release } = this.sql();
      const webhooks: OutboxItemInput[] = [];
      for (const change of changes) {
        const final = flag(change.final);
        const { changes: updated } = applyStatus.run(
          change.status.groupId,
          change.status.id,
          change.errorId,
          orNull(change.mccMnc),
          change.submitted?.carrier ?? null,
          change.submitted?.carrierMessageId ?? null,
          change.submitted?.at ?? null,
          final,
          final,
          change.at,
          final,
          final,
          flag(change.final && change.pullReport === true),
          change.phone?.number ?? null,
          change.phone?.at ?? null,
          change.accountId,
          change.pk,
        );
        if (updated === 0) continue;
        if (change.webhooks) for (const item of change.webhooks) webhooks.push(item);
        if (change.spawn) insert.run(...toInsertParams(change.spawn));
        if (change.release) release.run(change.release.at, change.accountId, change.release.messageId);
      }
      // Packed over the whole round, so reports for one URL share rows.
      this.outbox.insertItems(webhooks);
    }),
    // Returns messages removed; consumed or webhook-only inbound go with them.
    purge: this.db.transaction((before: number): number => {
      const { purgeMessages, purgeParts, purgeInbound, purgeOutbox, purgeAttempts } = this.sql();
      purgeParts.run(before);
      purgeInbound.run(before);
      purgeOutbox.run(before);
      purgeAttempts.run(before);
      return purgeMessages.run(before).changes;
    }),
  }));

  constructor(
    private readonly db: Db,
    private readonly outbox: SqliteOutboxStore,
    private readonly parts: SqliteMessagePartStore,
  ) {
    this.logQuery = new MessageLogQuery(db);
    this.browseQuery = new MessageBrowseQuery(db);
  }

  async insertMany(messages: NewMessage[]): Promise<Array<number | 'duplicate'>> {
    // The acceptance path runs on the HTTP thread: it must never sleep on the engine's locks.
    return withoutBlockingOnLocks(this.db, () => this.transactions().insertMany.immediate(messages));
  }

  async existingMessageIds(accountId: string, messageIds: string[]): Promise<Set<string>> {
    return new Set(this.sql().existing.all(accountId, JSON.stringify(messageIds)));
  }

  async get(accountId: string, messageId: string): Promise<StoredMessage | undefined> {
    const row = this.sql().get.get(accountId, messageId);
    return row && toStoredMessage(row);
  }

  async claimDue(now: number, limit: number, leaseUntil: number, nodeId?: string): Promise<ClaimedMessage[]> {
    // SQLite reads a negative LIMIT as "no limit".
    if (limit <= 0 || this.sql().anyDue.get({ now }) === 0) return [];
    const rows = this.transactions().claim.immediate(now, limit, leaseUntil, nodeId ?? null);
    return rows.sort(byDueThenPk).map(toClaimedMessage);
  }

  async requeue(items: Array<{ accountId: string; pk: number; dueAt: number }>): Promise<void> {
    this.transactions().requeue.immediate(items);
  }

  async markSubmitted(results: SubmitResult[], nodeId?: string): Promise<void> {
    this.transactions().markSubmitted.immediate(results, nodeId ?? null);
  }

  async listSubmitted(carrier: string, limit: number, afterPk?: number): Promise<StoredMessage[]> {
    return this.sql().listSubmitted.all(carrier, afterPk ?? 0, limit).map(toStoredMessage);
  }

  async releaseClaims(nodeIds: string[], silentBefore: number): Promise<number> {
    if (nodeIds.length === 0) return 0;
    return this.sql().releaseClaims.run({ nodeIds: JSON.stringify(nodeIds), silentBefore }).changes;
  }

  async adoptSubmitted(
    carrier: string,
    nodeIds: string[],
    silentBefore: number,
    nodeId: string,
    limit: number,
    afterPk?: number,
  ): Promise<StoredMessage[]> {
    if (nodeIds.length === 0 || limit <= 0) return [];
    const rows = this.sql().adoptSubmitted.all({ carrier, nodeIds: JSON.stringify(nodeIds), silentBefore, nodeId, limit, afterPk: afterPk ?? 0 });
    return rows.map(toStoredMessage).sort((a, b) => a.pk - b.pk);
  }

  async nextDueAt(): Promise<number | undefined> {
    return this.sql().nextDue.get() ?? undefined;
  }

  async listOverdueSubmitted(now: number, limit: number): Promise<StoredMessage[]> {
    return this.sql().listOverdue.all(now, limit).map(toStoredMessage);
  }

  async findByCarrierIds(carrier: string, carrierMessageIds: string[]): Promise<StoredMessage[]> {
    return this.sql().byCarrierIds.all(carrier, JSON.stringify(carrierMessageIds)).map(toStoredMessage);
  }

  async applyStatusChanges(changes: StatusChange[]): Promise<void> {
    this.transactions().applyStatusChanges.immediate(changes);
  }

  async listLogs(filter: MessageLogFilter): Promise<StoredMessage[]> {
    return this.logQuery.run(filter).map(toStoredMessage);
  }

  async browse(filter: MessageBrowseFilter): Promise<MessageSummary[]> {
    return this.browseQuery.run(filter);
  }

  async purgeBefore(before: number): Promise<number> {
    return this.transactions().purge.immediate(before);
  }
}
