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
import { partsInsert } from './message-parts.js';
import { accountWalk } from './account-walk.js';
import { browseMessages } from './message-browse.js';
import { and, type Db, type Fragment, jsonText, opt, outboxInsert, type Row, type Sql } from './shared.js';

export function toMessage(r: Row): StoredMessage {
  const m: StoredMessage = {
    pk: r.pk,
    accountId: r.account_id,
    messageId: r.message_id,
    bulkId: r.bulk_id,
    api: r.api,
    destination: r.destination,
    content: r.content,
    encoding: r.encoding,
    messageCount: r.message_count,
    webhook: r.webhook,
    createdAt: r.created_at,
    dueAt: r.due_at,
    validUntil: r.valid_until,
    state: r.state,
    status: { groupId: r.status_group_id, id: r.status_id },
    errorId: r.error_id,
    attempts: r.attempts,
  };
  if (r.channel !== 'SMS') m.channel = r.channel;
  if (r.sender !== null) m.sender = r.sender;
  if (r.callback_data !== null) m.callbackData = r.callback_data;
  if (r.entity_id !== null) m.entityId = r.entity_id;
  if (r.application_id !== null) m.applicationId = r.application_id;
  if (r.campaign_reference_id !== null) m.campaignReferenceId = r.campaign_reference_id;
  if (r.extras !== null) m.extras = r.extras;
  if (r.delivery_window !== null) m.deliveryWindow = r.delivery_window;
  if (r.carrier !== null) m.carrier = r.carrier;
  if (r.carrier_message_id !== null) m.carrierMessageId = r.carrier_message_id;
  if (r.sent_at !== null) m.sentAt = r.sent_at;
  if (r.done_at !== null) m.doneAt = r.done_at;
  if (r.mcc_mnc !== null) m.mccMnc = r.mcc_mnc;
  return m;
}

function toClaimed(r: Row): ClaimedMessage {
  const m = toMessage(r) as ClaimedMessage;
  m.leaseUntil = r.lease_until;
  return m;
}

const keyOf = (accountId: string, messageId: string): string => `${accountId}\u0000${messageId}`;

/**
 * Splits changes into rounds in which each message appears at most once, keeping each message's
 * changes in order: one UPDATE … FROM cannot apply two changes to the same row.
 */
function rounds(changes: StatusChange[]): Array<Array<{ change: StatusChange; tag: number }>> {
  const seen = new Map<number, number>();
  const out: Array<Array<{ change: StatusChange; tag: number }>> = [];
  changes.forEach((change, tag) => {
    const round = seen.get(change.pk) ?? 0;
    seen.set(change.pk, round + 1);
    (out[round] ??= []).push({ change, tag });
  });
  return out;
}

export class PgMessageStore implements MessageStore {
  /**
   * @param keptPlans runs the writes by key — insertMany, markSubmitted, a status round — with the
   * generic plan it keeps (postgres-store.ts, KEPT_PLANS): their plan never depends on a table's size.
   */
  constructor(
    private readonly sql: Sql,
    private readonly keptPlans: Sql = sql,
  ) {}

  async insertMany(messages: NewMessage[]): Promise<Array<number | 'duplicate'>> {
    return this.insertWith(this.keptPlans, messages);
  }

  private async insertWith(sql: Db, messages: readonly NewMessage[]): Promise<Array<number | 'duplicate'>> {
    const n = messages.length;
    if (n === 0) return [];
    const accountIds = new Array<string>(n);
    const messageIds = new Array<string>(n);
    const bulkIds = new Array<string>(n);
    const apis = new Array<string>(n);
    const senders = new Array<string | null>(n);
    const destinations = new Array<string>(n);
    const contents = new Array<string | null>(n);
    const encodings = new Array<string>(n);
    const messageCounts = new Array<number>(n);
    const callbackData = new Array<string | null>(n);
    const entityIds = new Array<string | null>(n);
    const applicationIds = new Array<string | null>(n);
    const campaignReferenceIds = new Array<string | null>(n);
    const webhooks = new Array<string | null>(n);
    const extras = new Array<string | null>(n);
    const windows = new Array<string | null>(n);
    const createdAts = new Array<number>(n);
    const dueAts = new Array<number>(n);
    const validUntils = new Array<number>(n);
    const states = new Array<string>(n);
    const groupIds = new Array<number>(n);
    const statusIds = new Array<number>(n);
    const errorIds = new Array<number>(n);
    const attempts = new Array<number>(n);
    const leases = new Array<number | null>(n);
    const nodeIds = new Array<string | null>(n);
    const channels = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const m = messages[i]!;
      channels[i] = m.channel ?? 'SMS';
      accountIds[i] = m.accountId;
      messageIds[i] = m.messageId;
      bulkIds[i] = m.bulkId;
      apis[i] = m.api;
      senders[i] = opt(m.sender);
      destinations[i] = m.destination;
      contents[i] = jsonText(m.content);
      encodings[i] = m.encoding;
      messageCounts[i] = m.messageCount;
      callbackData[i] = opt(m.callbackData);
      entityIds[i] = opt(m.entityId);
      applicationIds[i] = opt(m.applicationId);
      campaignReferenceIds[i] = opt(m.campaignReferenceId);
      webhooks[i] = jsonText(m.webhook);
      extras[i] = jsonText(m.extras);
      windows[i] = jsonText(m.deliveryWindow);
      createdAts[i] = m.createdAt;
      dueAts[i] = m.dueAt;
      validUntils[i] = m.validUntil;
      states[i] = m.state;
      groupIds[i] = m.status.groupId;
      statusIds[i] = m.status.id;
      errorIds[i] = m.errorId;
      attempts[i] = m.state === 'dispatching' ? 1 : 0;
      leases[i] = m.state === 'dispatching' ? opt(m.leaseUntil) : null;
      nodeIds[i] = m.state === 'dispatching' ? opt(m.nodeId) : null;
    }
    // One statement for the whole batch. Each row takes its pk first, in input order; its key then
    // goes into message_keys, where the first occurrence of an id wins (later ones, in this batch or
    // stored before, hit the conflict clause), and only rows whose key went in are stored.
    const rows = await sql`
      WITH u AS (
        SELECT nextval('messages_pk_seq') AS pk, u.*
        FROM unnest(
          ${accountIds}::text[], ${messageIds}::text[], ${bulkIds}::text[], ${apis}::text[], ${senders}::text[],
          ${destinations}::text[], ${contents}::text[], ${encodings}::text[], ${messageCounts}::int4[],
          ${callbackData}::text[], ${entityIds}::text[], ${applicationIds}::text[], ${campaignReferenceIds}::text[],
          ${webhooks}::text[], ${extras}::text[], ${windows}::text[], ${createdAts}::int8[], ${dueAts}::int8[],
          ${validUntils}::int8[], ${states}::text[], ${groupIds}::int4[], ${statusIds}::int4[], ${errorIds}::int4[],
          ${attempts}::int4[], ${leases}::int8[], ${channels}::text[], ${nodeIds}::text[]
        ) WITH ORDINALITY AS u(
          account_id, message_id, bulk_id, api, sender, destination, content, encoding, message_count,
          callback_data, entity_id, application_id, campaign_reference_id, webhook, extras, delivery_window,
          created_at, due_at, valid_until, state, status_group_id, status_id, error_id, attempts, lease_until, channel, node_id, ord)
      ), keys AS (
        INSERT INTO message_keys (account_id, message_id, pk)
        SELECT account_id, message_id, pk FROM u ORDER BY ord
        ON CONFLICT (account_id, message_id) DO NOTHING
        RETURNING pk
      )
      INSERT INTO messages (
        pk, account_id, message_id, bulk_id, api, sender, destination, content, encoding, message_count,
        callback_data, entity_id, application_id, campaign_reference_id, webhook, extras, delivery_window,
        created_at, due_at, valid_until, state, status_group_id, status_id, error_id, attempts, lease_until, channel, node_id)
      OVERRIDING SYSTEM VALUE
      SELECT
        u.pk, u.account_id, u.message_id, u.bulk_id, u.api, u.sender, u.destination, u.content::jsonb, u.encoding,
        u.message_count, u.callback_data, u.entity_id, u.application_id, u.campaign_reference_id,
        u.webhook::jsonb, u.extras::jsonb, u.delivery_window::jsonb, u.created_at, u.due_at, u.valid_until,
        u.state, u.status_group_id, u.status_id, u.error_id, u.attempts, u.lease_until, u.channel, u.node_id
      FROM u WHERE u.pk = ANY(ARRAY(SELECT pk FROM keys))
      ORDER BY u.ord
      RETURNING pk, account_id, message_id`;
    const inserted = new Map<string, number>();
    for (const r of rows) inserted.set(keyOf(r.account_id, r.message_id), r.pk);
    const result = new Array<number | 'duplicate'>(n);
    for (let i = 0; i < n; i++) {
      const key = keyOf(accountIds[i]!, messageIds[i]!);
      const pk = inserted.get(key);
      if (pk === undefined) {
        result[i] = 'duplicate';
      } else {
        result[i] = pk;
        inserted.delete(key); // later occurrences in the batch are duplicates
      }
    }
    return result;
  }

  async existingMessageIds(accountId: string, messageIds: string[]): Promise<Set<string>> {
    if (messageIds.length === 0) return new Set();
    const rows = await this.sql`
      SELECT message_id FROM message_keys WHERE account_id = ${accountId} AND message_id = ANY(${messageIds}::text[])`;
    return new Set(rows.map((r) => r.message_id as string));
  }

  async get(accountId: string, messageId: string): Promise<StoredMessage | undefined> {
    const rows = await this.sql`
      SELECT m.* FROM message_keys k JOIN messages m ON m.pk = k.pk
      WHERE k.account_id = ${accountId} AND k.message_id = ${messageId}`;
    return rows.length > 0 ? toMessage(rows[0]!) : undefined;
  }

  async claimDue(now: number, limit: number, leaseUntil: number, nodeId?: string): Promise<ClaimedMessage[]> {
    if (limit <= 0) return [];
    // Each branch walks an index in order and stops at the limit, so a large backlog is never
    // sorted as a whole (an OR of both conditions would be): queued messages by (due_at, pk), lapsed
    // leases by lease_until. A plain index scan also marks the entries of row versions that later
    // updates left dead, so the next claim skips them; the bitmap scan the planner picks for an
    // ORDER BY it cannot walk marks nothing, and without a vacuum it visits every dead version of
    // every message that was ever leased. Rows another claimer holds are skipped, never waited for.
    const rows = await this.sql`
      WITH queued AS (
        SELECT pk, due_at FROM messages
        WHERE state = 'queued' AND due_at <= ${now}
        ORDER BY due_at, pk LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      ), expired AS (
        SELECT pk, due_at FROM messages
        WHERE state = 'dispatching' AND lease_until < ${now}
        ORDER BY lease_until LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      ), picked AS (
        SELECT pk FROM (SELECT * FROM queued UNION ALL SELECT * FROM expired) c
        ORDER BY due_at, pk LIMIT ${limit}
      )
      UPDATE messages m SET state = 'dispatching', lease_until = ${leaseUntil}, attempts = m.attempts + 1, node_id = ${nodeId ?? null}
      FROM picked WHERE m.pk = picked.pk
      RETURNING m.*`;
    return rows.map(toClaimed).sort((a, b) => a.dueAt - b.dueAt || a.pk - b.pk);
  }

  async requeue(items: Array<{ accountId: string; pk: number; dueAt: number }>): Promise<void> {
    if (items.length === 0) return;
    // A single statement is atomic on its own. Only claimed messages go back to the queue.
    await this.sql`
      UPDATE messages m SET state = 'queued', due_at = u.due_at, lease_until = NULL
      FROM unnest(
        ${items.map((i) => i.accountId)}::text[], ${items.map((i) => i.pk)}::int8[], ${items.map((i) => i.dueAt)}::int8[]
      ) AS u(account_id, pk, due_at)
      WHERE m.pk = u.pk AND m.account_id = u.account_id AND m.state = 'dispatching'`;
  }

  async markSubmitted(results: SubmitResult[], nodeId?: string): Promise<void> {
    if (results.length === 0) return;
    const sql = this.keptPlans;
    const update = sql`
      UPDATE messages m
      SET state = 'submitted', carrier = u.carrier, carrier_message_id = u.carrier_message_id,
          sent_at = u.at, lease_until = NULL, node_id = ${nodeId ?? null}
      FROM unnest(
        ${results.map((r) => r.accountId)}::text[], ${results.map((r) => r.pk)}::int8[],
        ${results.map((r) => r.carrier)}::text[], ${results.map((r) => r.carrierMessageId)}::text[],
        ${results.map((r) => r.at)}::int8[]
      ) AS u(account_id, pk, carrier, carrier_message_id, at)
      WHERE m.pk = u.pk AND m.account_id = u.account_id AND m.state <> 'final'`;
    if (!results.some((r) => r.partIds)) {
      await update;
      return;
    }
    // One statement, hence one transaction: a long message is never submitted without its parts.
    await sql`WITH upd AS (${update} RETURNING m.pk), parts AS (${partsInsert(sql, results, sql`SELECT pk FROM upd`)}) SELECT 1`;
  }

  async listSubmitted(carrier: string, limit: number, afterPk?: number): Promise<StoredMessage[]> {
    const rows = await this.sql`
      SELECT * FROM messages
      WHERE state = 'submitted' AND carrier = ${carrier} AND pk > ${afterPk ?? 0}
      ORDER BY pk LIMIT ${limit}`;
    return rows.map(toMessage);
  }

  async releaseClaims(nodeIds: string[], silentBefore: number): Promise<number> {
    if (nodeIds.length === 0) return 0;
    const rows = await this.sql`
      UPDATE messages m SET state = 'queued', lease_until = NULL, node_id = NULL
      WHERE m.state = 'dispatching' AND m.node_id = ANY(${nodeIds}::text[])
        AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = m.node_id AND n.beat_at >= ${silentBefore})
      RETURNING m.pk`;
    return rows.length;
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
    // The page walks the carrier's submitted messages by pk; the outer condition is checked again
    // on the locked row, so a message two survivors reach at once goes to one of them.
    const rows = await this.sql`
      UPDATE messages m SET node_id = ${nodeId}
      FROM (
        SELECT s.pk FROM messages s
        WHERE s.state = 'submitted' AND s.carrier = ${carrier} AND s.pk > ${afterPk ?? 0}
          AND s.node_id = ANY(${nodeIds}::text[])
          AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = s.node_id AND n.beat_at >= ${silentBefore})
        ORDER BY s.pk LIMIT ${limit}
      ) page
      WHERE m.pk = page.pk AND m.state = 'submitted' AND m.node_id = ANY(${nodeIds}::text[])
      RETURNING m.*`;
    return rows.map(toMessage).sort((a, b) => a.pk - b.pk);
  }

  async nextDueAt(): Promise<number | undefined> {
    const rows = await this.sql`
      SELECT least(
        (SELECT min(due_at) FROM messages WHERE state = 'queued'),
        (SELECT min(lease_until) FROM messages WHERE state = 'dispatching'),
        (SELECT min(valid_until) FROM messages WHERE state = 'submitted')) AS due`;
    return rows[0]?.due ?? undefined;
  }

  async listOverdueSubmitted(now: number, limit: number): Promise<StoredMessage[]> {
    const rows = await this.sql`
      SELECT * FROM messages
      WHERE state = 'submitted' AND valid_until < ${now}
      ORDER BY valid_until, pk LIMIT ${limit}`;
    return rows.map(toMessage);
  }

  async findByCarrierIds(carrier: string, carrierMessageIds: string[]): Promise<StoredMessage[]> {
    if (carrierMessageIds.length === 0) return [];
    const rows = await this.sql`
      SELECT * FROM messages
      WHERE state = 'submitted' AND carrier = ${carrier} AND carrier_message_id = ANY(${carrierMessageIds}::text[])
      ORDER BY pk`;
    return rows.map(toMessage);
  }

  async applyStatusChanges(changes: StatusChange[]): Promise<void> {
    if (changes.length === 0) return;
    const batches = rounds(changes);
    const spawning = changes.some((c) => c.spawn !== undefined || c.release !== undefined);
    if (batches.length === 1 && !spawning) {
      await this.applyRound(this.keptPlans, batches[0]!);
      return;
    }
    await this.sql.begin(async (tx) => {
      for (const batch of batches) {
        const applied = await this.applyRound(tx, batch);
        const spawned = batch.filter(({ change, tag }) => change.spawn !== undefined && applied.has(tag)).map(({ change }) => change.spawn!);
        if (spawned.length > 0) await this.insertWith(tx, spawned);
        for (const { change, tag } of batch) {
          if (change.release === undefined || !applied.has(tag)) continue;
          await tx`UPDATE messages SET due_at = ${change.release.at}
                   WHERE pk = (SELECT pk FROM message_keys WHERE account_id = ${change.accountId} AND message_id = ${change.release.messageId})
                     AND state = 'queued'`;
        }
      }
    });
  }

  /**
   * One statement: updates the messages not yet final (flagging their pull reports and marking what
   * a virtual phone received), then inserts the webhook items of exactly the changes that were
   * applied (matched by tag). Returns the tags of the changes applied.
   */
  private async applyRound(sql: Db, batch: Array<{ change: StatusChange; tag: number }>): Promise<Set<number>> {
    const n = batch.length;
    const accountIds = new Array<string>(n);
    const pks = new Array<number>(n);
    const groupIds = new Array<number>(n);
    const statusIds = new Array<number>(n);
    const errorIds = new Array<number>(n);
    const finals = new Array<number>(n);
    const ats = new Array<number>(n);
    const mccMncs = new Array<string | null>(n);
    const carriers = new Array<string | null>(n);
    const carrierMessageIds = new Array<string | null>(n);
    const sentAts = new Array<number | null>(n);
    const tags = new Array<number>(n);
    const pullReports = new Array<number>(n);
    const items: OutboxItemInput[] = [];
    const itemTags: number[] = [];
    const phoneNumbers = new Array<string | null>(n);
    const phoneAts = new Array<number | null>(n);
    for (let i = 0; i < n; i++) {
      const { change: c, tag } = batch[i]!;
      accountIds[i] = c.accountId;
      pks[i] = c.pk;
      groupIds[i] = c.status.groupId;
      statusIds[i] = c.status.id;
      errorIds[i] = c.errorId;
      finals[i] = c.final ? 1 : 0;
      ats[i] = c.at;
      mccMncs[i] = opt(c.mccMnc);
      carriers[i] = c.submitted?.carrier ?? null;
      carrierMessageIds[i] = c.submitted?.carrierMessageId ?? null;
      sentAts[i] = c.submitted?.at ?? null;
      tags[i] = tag;
      pullReports[i] = c.final && c.pullReport === true ? 1 : 0;
      for (const item of c.webhooks ?? []) {
        items.push(item);
        itemTags.push(tag);
      }
      phoneNumbers[i] = c.phone?.number ?? null;
      phoneAts[i] = c.phone?.at ?? null;
    }
    const applied = await sql`
      WITH upd AS (
        UPDATE messages m SET
          status_group_id = c.status_group_id,
          status_id = c.status_id,
          error_id = c.error_id,
          mcc_mnc = coalesce(c.mcc_mnc, m.mcc_mnc),
          carrier = coalesce(c.carrier, m.carrier),
          carrier_message_id = coalesce(c.carrier_message_id, m.carrier_message_id),
          sent_at = coalesce(c.sent_at, m.sent_at),
          state = CASE WHEN c.final = 1 THEN 'final' ELSE m.state END,
          done_at = CASE WHEN c.final = 1 THEN c.at ELSE m.done_at END,
          lease_until = CASE WHEN c.final = 1 THEN NULL ELSE m.lease_until END,
          node_id = CASE WHEN c.final = 1 THEN NULL ELSE m.node_id END,
          report_pending = CASE WHEN c.pull_report = 1 THEN true ELSE m.report_pending END,
          phone_number = coalesce(c.phone_number, m.phone_number),
          phone_at = coalesce(c.phone_at, m.phone_at)
        FROM unnest(
          ${accountIds}::text[], ${pks}::int8[], ${groupIds}::int4[], ${statusIds}::int4[], ${errorIds}::int4[],
          ${finals}::int4[], ${ats}::int8[], ${mccMncs}::text[], ${carriers}::text[], ${carrierMessageIds}::text[],
          ${sentAts}::int8[], ${pullReports}::int4[], ${phoneNumbers}::text[], ${phoneAts}::int8[], ${tags}::int8[]
        ) AS c(account_id, pk, status_group_id, status_id, error_id, final, at, mcc_mnc, carrier, carrier_message_id,
               sent_at, pull_report, phone_number, phone_at, tag)
        WHERE m.pk = c.pk AND m.account_id = c.account_id AND m.state <> 'final'
        RETURNING c.tag
      ), box AS (
        ${outboxInsert(sql, items, { values: itemTags, source: sql`SELECT tag FROM upd` })}
      )
      SELECT tag FROM upd`;
    return new Set(applied.map((r) => Number(r.tag)));
  }

  async listLogs(filter: MessageLogFilter): Promise<StoredMessage[]> {
    const sql = this.sql;
    const channel = filter.channel ?? 'SMS';
    const walk = accountWalk(sql, channel === 'RCS');
    const where: Fragment[] = [
      walk.account(filter.accountId),
      sql`created_at >= ${filter.since}`,
      sql`channel = ${channel}`,
    ];
    if (filter.beforePk !== undefined) where.push(walk.before(filter.beforePk));
    if (filter.sender !== undefined) where.push(sql`sender = ${filter.sender}`);
    if (filter.destination !== undefined) where.push(sql`destination = ${filter.destination}`);
    if (filter.bulkIds?.length) where.push(sql`bulk_id = ANY(${filter.bulkIds}::text[])`);
    if (filter.messageIds?.length) where.push(walk.messageIds(filter.messageIds));
    if (filter.campaignReferenceIds?.length) {
      where.push(sql`campaign_reference_id = ANY(${filter.campaignReferenceIds}::text[])`);
    }
    if (filter.statusGroupId !== undefined) where.push(sql`status_group_id = ${filter.statusGroupId}`);
    if (filter.sentSince !== undefined) where.push(sql`coalesce(sent_at, created_at) >= ${filter.sentSince}`);
    if (filter.sentUntil !== undefined) where.push(sql`coalesce(sent_at, created_at) <= ${filter.sentUntil}`);
    if (filter.mcc !== undefined) where.push(sql`left(mcc_mnc, 3) = ${filter.mcc}`);
    if (filter.mnc !== undefined) where.push(sql`substr(mcc_mnc, 4) = ${filter.mnc}`);
    if (filter.entityId !== undefined) where.push(sql`entity_id = ${filter.entityId}`);
    if (filter.applicationId !== undefined) where.push(sql`application_id = ${filter.applicationId}`);
    const rows = await sql`SELECT m.* FROM ${walk.from} WHERE ${and(sql, where)} ORDER BY ${walk.order} DESC LIMIT ${filter.limit}`;
    return rows.map(toMessage);
  }

  browse(filter: MessageBrowseFilter): Promise<MessageSummary[]> {
    return browseMessages(this.sql, filter);
  }

  /**
   * Returns messages removed; consumed or webhook-only inbound older than `before` go too. A message
   * whose pull report is still pending stays until the report is consumed.
   */
  async purgeBefore(before: number): Promise<number> {
    const rows = await this.sql`
      WITH gone AS (
        DELETE FROM messages
        WHERE state = 'final' AND coalesce(done_at, created_at) < ${before} AND report_pending IS NULL
        RETURNING pk, account_id, message_count
      ), keys_gone AS (
        DELETE FROM message_keys k USING gone WHERE k.account_id = gone.account_id AND k.pk = gone.pk
      ), parts_gone AS (
        DELETE FROM message_parts WHERE message_pk IN (SELECT pk FROM gone WHERE message_count > 1)
      ), inbound_gone AS (
        DELETE FROM inbound WHERE received_at < ${before} AND (consumed_at IS NOT NULL OR NOT pullable)
      ), outbox_gone AS (
        DELETE FROM outbox WHERE state <> 'pending' AND created_at < ${before}
      ), attempts_gone AS (
        DELETE FROM webhook_attempts WHERE started_at < ${before}
      )
      SELECT count(*) AS n FROM gone`;
    return rows[0]!.n;
  }
}
