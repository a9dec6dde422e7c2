import { callColumns } from '../call-record.js';
import { callConditions } from '../call-filter.js';
import type { CallFilter, CallRecord, CallStep, CallStore, CallTimer, CallTransition, NewCall, TimelineEntry } from '../types.js';
import { phoneEntriesInsert } from './phones.js';
import { and, jsonText, outboxInsert, type Db, type Row, type Sql } from './shared.js';

const toCall = (r: Row): CallRecord => ({ ...(r.body as Omit<CallRecord, 'pk'>), pk: r.pk });

function toTimer(r: Row): CallTimer {
  const timer: CallTimer = { id: r.id, accountId: r.account_id, callPk: r.call_pk, callId: r.call_id, kind: r.kind, dueAt: r.due_at };
  if (r.data !== null) timer.data = r.data;
  return timer;
}

export class PgCallStore implements CallStore {
  constructor(private readonly sql: Sql) {}

  async create(call: NewCall, first: Omit<CallTransition, 'call'>): Promise<CallRecord> {
    const c = callColumns(call);
    return this.sql.begin(async (tx) => {
      const rows = await tx`
        INSERT INTO calls (account_id, call_id, configuration_id, application_id, direction, endpoint_type, from_id, to_id,
                           state, live, start_time, end_time, node_id, body, updated_at)
        VALUES (${c.accountId}, ${c.callId}, ${c.configurationId}, ${c.applicationId}, ${c.direction}, ${c.endpointType},
                ${c.from}, ${c.to}, ${c.state}, ${c.live}, ${c.startTime}, ${c.endTime}, ${c.nodeId}, ${c.body}::text::jsonb, ${c.updatedAt})
        RETURNING pk`;
      const stored = { ...call, pk: rows[0]!.pk as number };
      await storeOutputs(tx, stored.pk, { ...first, call: stored });
      return stored;
    });
  }

  async get(accountId: string, callId: string): Promise<CallRecord | undefined> {
    const rows = await this.sql`SELECT pk, body FROM calls WHERE account_id = ${accountId} AND call_id = ${callId}`;
    return rows.length > 0 ? toCall(rows[0]!) : undefined;
  }

  async list(filter: CallFilter): Promise<{ results: CallRecord[]; total: number }> {
    const sql = this.sql;
    const where = and(
      sql,
      callConditions(filter).map(([column, operator, value]) =>
        operator === '=' ? sql`${sql(column)} = ${value}` : sql`${sql(column)} >= ${value}`,
      ),
    );
    const [rows, count] = await Promise.all([
      sql`SELECT pk, body FROM calls WHERE ${where} ORDER BY start_time DESC, pk DESC LIMIT ${filter.size} OFFSET ${filter.page * filter.size}`,
      sql`SELECT count(*)::int8 AS n FROM calls WHERE ${where}`,
    ]);
    return { results: rows.map(toCall), total: count[0]!.n };
  }

  async update(accountId: string, callId: string, step: CallStep): Promise<CallRecord | undefined> {
    return this.sql.begin(async (tx) => {
      const rows = await tx`SELECT pk, body FROM calls WHERE account_id = ${accountId} AND call_id = ${callId} FOR UPDATE`;
      if (rows.length === 0) return undefined;
      const current = toCall(rows[0]!);
      const transition = step(current);
      if (!transition) return current;
      const call = { ...transition.call, pk: current.pk };
      const c = callColumns(call);
      await tx`
        UPDATE calls SET state = ${c.state}, live = ${c.live}, end_time = ${c.endTime}, node_id = ${c.nodeId},
                         application_id = ${c.applicationId}, body = ${c.body}::text::jsonb, updated_at = ${c.updatedAt}
        WHERE pk = ${current.pk}`;
      await storeOutputs(tx, current.pk, { ...transition, call });
      return call;
    });
  }

  async claimDueTimers(now: number, limit: number, leaseUntil: number): Promise<CallTimer[]> {
    if (limit <= 0) return [];
    // Claims whole calls: every due timer of a call goes to one claimer, which runs them in order.
    // Locking the calls' rows (SKIP LOCKED) keeps a concurrent claimer, or a call in mid-step, out.
    const rows = await this.sql`
      UPDATE call_timers t SET lease_until = ${leaseUntil}
      FROM calls c
      WHERE c.pk = t.call_pk AND t.due_at <= ${now} AND (t.lease_until IS NULL OR t.lease_until < ${now})
        AND t.call_pk IN (
          SELECT c2.pk FROM call_timers t2 JOIN calls c2 ON c2.pk = t2.call_pk
          WHERE t2.due_at <= ${now} AND (t2.lease_until IS NULL OR t2.lease_until < ${now})
          ORDER BY t2.due_at, t2.id
          LIMIT ${limit}
          FOR UPDATE OF c2 SKIP LOCKED)
      RETURNING t.id, t.account_id, t.call_pk, c.call_id, t.kind, t.due_at, t.data`;
    return rows.map(toTimer).sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
  }

  async nextTimerDue(now: number): Promise<number | undefined> {
    const rows = await this.sql`SELECT min(due_at) AS due FROM call_timers WHERE lease_until IS NULL OR lease_until < ${now}`;
    return rows[0]?.due ?? undefined;
  }

  async listLiveOnNodes(nodeIds: string[], limit: number, silentBefore: number): Promise<CallRecord[]> {
    if (nodeIds.length === 0) return [];
    const rows = await this.sql`
      SELECT pk, body FROM calls WHERE node_id = ANY(${nodeIds}::text[]) AND live
        AND NOT EXISTS (SELECT 1 FROM nodes WHERE nodes.id = calls.node_id AND nodes.beat_at >= ${silentBefore})
      ORDER BY pk LIMIT ${limit}`;
    return rows.map(toCall);
  }

  async timeline(accountId: string, callId: string): Promise<TimelineEntry[]> {
    const rows = await this.sql`
      SELECT t.at, t.type, t.data FROM call_timeline t JOIN calls c ON c.pk = t.call_pk
      WHERE c.account_id = ${accountId} AND c.call_id = ${callId} ORDER BY t.id`;
    return rows.map((r) => ({ at: r.at, type: r.type, data: r.data }));
  }

  async purgeBefore(before: number): Promise<number> {
    const rows = await this.sql`DELETE FROM calls WHERE end_time IS NOT NULL AND end_time < ${before} RETURNING pk`;
    return rows.length;
  }
}

/** Inside the caller's transaction: a step's timers, timeline, events and phone entries. */
async function storeOutputs(tx: Db, pk: number, t: CallTransition): Promise<void> {
  if (t.removeAllTimers) await tx`DELETE FROM call_timers WHERE call_pk = ${pk}`;
  else {
    if (t.removeTimerIds?.length) await tx`DELETE FROM call_timers WHERE call_pk = ${pk} AND id = ANY(${t.removeTimerIds}::int8[])`;
    if (t.removeTimerKinds?.length) await tx`DELETE FROM call_timers WHERE call_pk = ${pk} AND kind = ANY(${t.removeTimerKinds}::text[])`;
  }
  const timers = t.addTimers ?? [];
  if (timers.length > 0) {
    await tx`
      INSERT INTO call_timers (account_id, call_pk, kind, due_at, data)
      SELECT ${t.call.accountId}, ${pk}, k.kind, k.due_at, k.data::jsonb
      FROM unnest(${timers.map((x) => x.kind)}::text[], ${timers.map((x) => x.dueAt)}::int8[], ${timers.map((x) => jsonText(x.data))}::text[])
        AS k(kind, due_at, data)`;
  }
  const timeline = t.timeline ?? [];
  if (timeline.length > 0) {
    await tx`
      INSERT INTO call_timeline (call_pk, at, type, data)
      SELECT ${pk}, e.at, e.type, e.data::jsonb
      FROM unnest(${timeline.map((e) => e.at)}::int8[], ${timeline.map((e) => e.type)}::text[], ${timeline.map((e) => JSON.stringify(e.data))}::text[])
        WITH ORDINALITY AS e(at, type, data, ord)
      ORDER BY e.ord`;
  }
  if (t.events?.length) await outboxInsert(tx, t.events);
  if (t.phone?.length) await phoneEntriesInsert(tx, t.phone);
}
