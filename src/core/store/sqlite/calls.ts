import { callColumns } from '../call-record.js';
import type { CallFilter, CallRecord, CallStep, CallStore, CallTimer, CallTransition, NewCall, TimelineEntry } from '../types.js';
import { CallListQuery } from './call-list.js';
import { toCall, toTimer, type CallRow, type TimerRow } from './call-rows.js';
import type { SqliteOutboxStore } from './outbox.js';
import type { SqlitePhoneStore } from './phones.js';
import { flag, jsonOrNull, parseJson, preparedOnce, rowId, type Db, withoutBlockingOnLocks } from './shared.js';

type Columns = ReturnType<typeof callColumns>;
const params = (c: Columns) => ({ ...c, live: flag(c.live) });

export class SqliteCallStore implements CallStore {
  private readonly listQuery: CallListQuery;

  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare<ReturnType<typeof params>>(
      `INSERT INTO calls (account_id, call_id, configuration_id, application_id, direction, endpoint_type, from_id, to_id,
         state, live, start_time, end_time, node_id, body, updated_at)
       VALUES (@accountId, @callId, @configurationId, @applicationId, @direction, @endpointType, @from, @to,
         @state, @live, @startTime, @endTime, @nodeId, @body, @updatedAt)`,
    ),
    get: this.db.prepare<[string, string], CallRow>('SELECT pk, body FROM calls WHERE account_id = ? AND call_id = ?'),
    update: this.db.prepare<ReturnType<typeof params> & { pk: number }>(
      `UPDATE calls SET state = @state, live = @live, end_time = @endTime, node_id = @nodeId, application_id = @applicationId,
         body = @body, updated_at = @updatedAt
       WHERE pk = @pk`,
    ),
    insertTimer: this.db.prepare<[string, number, string, number, string | null]>(
      'INSERT INTO call_timers (account_id, call_pk, kind, due_at, data) VALUES (?, ?, ?, ?, ?)',
    ),
    removeTimer: this.db.prepare<[number, number]>('DELETE FROM call_timers WHERE id = ? AND call_pk = ?'),
    removeTimersOfKind: this.db.prepare<[number, string]>('DELETE FROM call_timers WHERE call_pk = ? AND kind = ?'),
    removeAllTimers: this.db.prepare<[number]>('DELETE FROM call_timers WHERE call_pk = ?'),
    insertTimeline: this.db.prepare<[number, number, string, string]>('INSERT INTO call_timeline (call_pk, at, type, data) VALUES (?, ?, ?, ?)'),
    anyDue: this.db
      .prepare<[number, number], number>('SELECT EXISTS (SELECT 1 FROM call_timers WHERE due_at <= ? AND (lease_until IS NULL OR lease_until < ?))')
      .pluck(),
    claim: this.db.prepare<{ now: number; limit: number; leaseUntil: number }, TimerRow>(
      `UPDATE call_timers SET lease_until = @leaseUntil
       WHERE id IN (SELECT id FROM call_timers WHERE due_at <= @now AND (lease_until IS NULL OR lease_until < @now)
                    ORDER BY due_at, id LIMIT @limit)
       RETURNING id, account_id, call_pk, (SELECT call_id FROM calls WHERE calls.pk = call_pk) AS call_id, kind, due_at, data`,
    ),
    nextDue: this.db.prepare<[number], number | null>('SELECT min(due_at) FROM call_timers WHERE lease_until IS NULL OR lease_until < ?').pluck(),
    liveOnNode: this.db.prepare<[string, number, number], CallRow>(
      `SELECT pk, body FROM calls WHERE node_id = ? AND live = 1
         AND NOT EXISTS (SELECT 1 FROM nodes WHERE nodes.id = calls.node_id AND nodes.beat_at >= ?)
       ORDER BY pk LIMIT ?`,
    ),
    timeline: this.db.prepare<[string, string], { at: number; type: string; data: string }>(
      `SELECT t.at, t.type, t.data FROM call_timeline t JOIN calls c ON c.pk = t.call_pk
       WHERE c.account_id = ? AND c.call_id = ? ORDER BY t.id`,
    ),
    purge: this.db.prepare<[number]>('DELETE FROM calls WHERE end_time IS NOT NULL AND end_time < ?'),
  }));

  private readonly createTransaction = preparedOnce(() =>
    this.db.transaction((call: NewCall, first: Omit<CallTransition, 'call'>): number => {
      const pk = rowId(this.sql().insert.run(params(callColumns(call))));
      this.storeOutputs(pk, { ...first, call: { ...call, pk } });
      return pk;
    }),
  );

  private readonly updateTransaction = preparedOnce(() =>
    this.db.transaction((accountId: string, callId: string, step: CallStep): CallRecord | undefined => {
      const row = this.sql().get.get(accountId, callId);
      if (!row) return undefined;
      const transition = step(toCall(row));
      if (!transition) return toCall(row);
      const call = { ...transition.call, pk: row.pk };
      this.sql().update.run({ ...params(callColumns(call)), pk: row.pk });
      this.storeOutputs(row.pk, transition);
      return call;
    }),
  );

  private readonly claimTransaction = preparedOnce(() =>
    this.db.transaction((now: number, limit: number, leaseUntil: number) => this.sql().claim.all({ now, limit, leaseUntil })),
  );

  /**
   * @param waitsForDisk whether this connection's writes must be durable before the caller goes on
   * (the HTTP thread: an API action is acknowledged only once stored), else they are left to the
   * next synced commit, as the engine's pipeline writes are.
   */
  constructor(
    private readonly db: Db,
    private readonly outbox: SqliteOutboxStore,
    private readonly phones: SqlitePhoneStore,
    private readonly waitsForDisk: boolean,
  ) {
    this.listQuery = new CallListQuery(db);
  }

  async create(call: NewCall, first: Omit<CallTransition, 'call'>): Promise<CallRecord> {
    const pk = await withoutBlockingOnLocks(this.db, () => this.createTransaction().immediate(call, first));
    return { ...call, pk };
  }

  async get(accountId: string, callId: string): Promise<CallRecord | undefined> {
    const row = this.sql().get.get(accountId, callId);
    return row && toCall(row);
  }

  async list(filter: CallFilter): Promise<{ results: CallRecord[]; total: number }> {
    return this.listQuery.run(filter);
  }

  async update(accountId: string, callId: string, step: CallStep): Promise<CallRecord | undefined> {
    const write = () => this.updateTransaction().immediate(accountId, callId, step);
    return this.waitsForDisk ? withoutBlockingOnLocks(this.db, write) : write();
  }

  async claimDueTimers(now: number, limit: number, leaseUntil: number): Promise<CallTimer[]> {
    // A read needs no lock: with nothing due, the claim does not take the write lock.
    if (limit <= 0 || !this.sql().anyDue.get(now, now)) return [];
    const rows = this.claimTransaction().immediate(now, limit, leaseUntil);
    return rows.sort((a, b) => a.due_at - b.due_at || a.id - b.id).map(toTimer);
  }

  async nextTimerDue(now: number): Promise<number | undefined> {
    return this.sql().nextDue.get(now) ?? undefined;
  }

  async listLiveOnNodes(nodeIds: string[], limit: number, silentBefore: number): Promise<CallRecord[]> {
    const out: CallRecord[] = [];
    for (const nodeId of nodeIds) {
      if (out.length >= limit) break;
      out.push(...this.sql().liveOnNode.all(nodeId, silentBefore, limit - out.length).map(toCall));
    }
    return out;
  }

  async timeline(accountId: string, callId: string): Promise<TimelineEntry[]> {
    return this.sql()
      .timeline.all(accountId, callId)
      .map((row) => ({ at: row.at, type: row.type, data: parseJson<Record<string, unknown>>(row.data) }));
  }

  async purgeBefore(before: number): Promise<number> {
    return (await withoutBlockingOnLocks(this.db, () => this.sql().purge.run(before))).changes;
  }

  /** Inside the caller's transaction: a step's events, timers, timeline and phone entries. */
  private storeOutputs(pk: number, transition: CallTransition): void {
    const s = this.sql();
    if (transition.removeAllTimers) s.removeAllTimers.run(pk);
    for (const id of transition.removeTimerIds ?? []) s.removeTimer.run(id, pk);
    for (const kind of transition.removeTimerKinds ?? []) s.removeTimersOfKind.run(pk, kind);
    for (const timer of transition.addTimers ?? []) s.insertTimer.run(transition.call.accountId, pk, timer.kind, timer.dueAt, jsonOrNull(timer.data));
    for (const entry of transition.timeline ?? []) s.insertTimeline.run(pk, entry.at, entry.type, JSON.stringify(entry.data));
    if (transition.events?.length) this.outbox.insertItems(transition.events);
    if (transition.phone?.length) this.phones.insertEntries(transition.phone);
  }
}
