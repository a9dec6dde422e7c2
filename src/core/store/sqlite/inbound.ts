import type { InboundFilter, InboundMessage, InboundPartInput, InboundPartOutcome, InboundPartSet, InboundStore, OutboxItemInput } from '../types.js';
import { SqliteInboundParts } from './inbound-parts.js';
import type { SqliteOutboxStore } from './outbox.js';
import { flag, nullToUndefined, orNull, preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';
import { omitUndefined } from '../../omit-undefined.js';

interface InboundRow {
  id: number;
  account_id: string;
  message_id: string;
  from_number: string;
  to_number: string;
  text: string;
  clean_text: string;
  keyword: string | null;
  received_at: number;
  sms_count: number;
  callback_data: string | null;
  application_id: string | null;
  entity_id: string | null;
  campaign_reference_id: string | null;
}

interface FilterParams {
  accountId: string;
  since: number;
  applicationId: string | null;
  entityId: string | null;
  campaignReferenceId: string | null;
}

const toInbound = (row: InboundRow): InboundMessage =>
  omitUndefined({
    accountId: row.account_id,
    messageId: row.message_id,
    from: row.from_number,
    to: row.to_number,
    text: row.text,
    cleanText: row.clean_text,
    keyword: nullToUndefined(row.keyword),
    receivedAt: row.received_at,
    smsCount: row.sms_count,
    callbackData: nullToUndefined(row.callback_data),
    applicationId: nullToUndefined(row.application_id),
    entityId: nullToUndefined(row.entity_id),
    campaignReferenceId: nullToUndefined(row.campaign_reference_id),
  });

type Completes = { accountId: string; setKey: string; at: number };

/** Shared by consume and the pending count; `pullable = 1` lets SQLite use the partial index. */
const PENDING_MATCH = `account_id = @accountId AND pullable = 1 AND consumed_at IS NULL AND received_at >= @since
  AND (@applicationId IS NULL OR application_id = @applicationId)
  AND (@entityId IS NULL OR entity_id = @entityId)
  AND (@campaignReferenceId IS NULL OR campaign_reference_id = @campaignReferenceId)`;

export class SqliteInboundStore implements InboundStore {
  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare(
      `INSERT INTO inbound (account_id, message_id, from_number, to_number, text, clean_text, keyword,
         received_at, sms_count, callback_data, application_id, entity_id, campaign_reference_id, pullable)
       VALUES (@accountId, @messageId, @from, @to, @text, @cleanText, @keyword,
         @receivedAt, @smsCount, @callbackData, @applicationId, @entityId, @campaignReferenceId, @pullable)`,
    ),
    consume: this.db.prepare<FilterParams & { limit: number; now: number }, InboundRow>(
      `UPDATE inbound SET consumed_at = @now
       WHERE id IN (SELECT id FROM inbound WHERE ${PENDING_MATCH} ORDER BY id LIMIT @limit)
       RETURNING *`,
    ),
    countPending: this.db
      .prepare<FilterParams, number>(`SELECT count(*) FROM inbound WHERE ${PENDING_MATCH}`)
      .pluck(),
  }));

  private readonly parts: SqliteInboundParts;

  private readonly insertTransaction = preparedOnce(() =>
    this.db.transaction((message: InboundMessage, pullable: boolean, webhooks: readonly OutboxItemInput[], completes?: Completes): boolean => {
      if (completes && !this.parts.markDone(completes.accountId, completes.setKey, completes.at)) return false;
      this.sql().insert.run({
        accountId: message.accountId,
        messageId: message.messageId,
        from: message.from,
        to: message.to,
        text: message.text,
        cleanText: message.cleanText,
        keyword: orNull(message.keyword),
        receivedAt: message.receivedAt,
        smsCount: message.smsCount,
        callbackData: orNull(message.callbackData),
        applicationId: orNull(message.applicationId),
        entityId: orNull(message.entityId),
        campaignReferenceId: orNull(message.campaignReferenceId),
        pullable: flag(pullable),
      });
      this.outbox.insertItems(webhooks);
      return true;
    }),
  );

  private readonly partTransactions = preparedOnce(() => ({
    add: this.db.transaction((part: InboundPartInput) => this.parts.add(part)),
    purge: this.db.transaction((before: number) => this.parts.purgeDone(before)),
  }));

  private readonly consumeTransaction = preparedOnce(() =>
    this.db.transaction((filter: InboundFilter, now: number) => {
      const { consume, countPending } = this.sql();
      const params: FilterParams = {
        accountId: filter.accountId,
        since: filter.since,
        applicationId: orNull(filter.applicationId),
        entityId: orNull(filter.entityId),
        campaignReferenceId: orNull(filter.campaignReferenceId),
      };
      const rows = consume.all({ ...params, limit: filter.limit, now });
      return { rows, pending: countPending.get(params) ?? 0 };
    }),
  );

  constructor(
    private readonly db: Db,
    private readonly outbox: SqliteOutboxStore,
  ) {
    this.parts = new SqliteInboundParts(db);
  }

  async insert(message: InboundMessage, options: { pullable: boolean; webhooks?: OutboxItemInput[]; completes?: Completes }): Promise<boolean> {
    return withoutBlockingOnLocks(this.db, () => this.insertTransaction().immediate(message, options.pullable, options.webhooks ?? [], options.completes));
  }

  async addPart(part: InboundPartInput): Promise<InboundPartOutcome> {
    // Durable before the SMSC is answered, as an inbound message is.
    return withoutBlockingOnLocks(this.db, () => this.partTransactions().add.immediate(part));
  }

  async listStaleSets(firstBy: number, limit: number): Promise<InboundPartSet[]> {
    return this.parts.stale(firstBy, limit);
  }

  async purgeDoneSets(before: number): Promise<number> {
    return withoutBlockingOnLocks(this.db, () => this.partTransactions().purge.immediate(before));
  }

  async consume(filter: InboundFilter): Promise<{ messages: InboundMessage[]; pending: number }> {
    const { rows, pending } = await withoutBlockingOnLocks(this.db, () => this.consumeTransaction().immediate(filter, Date.now()));
    return { messages: rows.sort((a, b) => a.id - b.id).map(toInbound), pending };
  }
}
