import type { ReportData, ReportFilter, ReportStore } from '../types.js';
import { orNull, parseJson, preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';

interface ConsumedRow {
  id: number;
  data: string;
}

export class SqliteReportStore implements ReportStore {
  private readonly sql = preparedOnce(() => ({
    // Positional parameters (see MESSAGE_INSERT_SQL): one row per final status.
    insert: this.db.prepare<
      [
        accountId: string,
        messagePk: number,
        bulkId: string,
        messageId: string,
        entityId: string | null,
        applicationId: string | null,
        campaignReferenceId: string | null,
        createdAt: number,
        data: string,
      ]
    >(
      `INSERT INTO reports (account_id, message_pk, bulk_id, message_id, entity_id, application_id,
         campaign_reference_id, created_at, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // Optional filters are `(@x IS NULL OR col = @x)` so one prepared statement serves every combination.
    consume: this.db.prepare<
      {
        accountId: string;
        since: number;
        bulkId: string | null;
        messageId: string | null;
        entityId: string | null;
        applicationId: string | null;
        campaignReferenceId: string | null;
        limit: number;
        now: number;
      },
      ConsumedRow
    >(
      `UPDATE reports SET consumed_at = @now
       WHERE id IN (
         SELECT id FROM reports
         WHERE account_id = @accountId AND consumed_at IS NULL AND created_at >= @since
           AND (@bulkId IS NULL OR bulk_id = @bulkId)
           AND (@messageId IS NULL OR message_id = @messageId)
           AND (@entityId IS NULL OR entity_id = @entityId)
           AND (@applicationId IS NULL OR application_id = @applicationId)
           AND (@campaignReferenceId IS NULL OR campaign_reference_id = @campaignReferenceId)
         ORDER BY id LIMIT @limit)
       RETURNING id, data`,
    ),
  }));

  private readonly consumeTransaction = preparedOnce(() =>
    this.db.transaction((filter: ReportFilter, now: number) =>
      this.sql().consume.all({
        accountId: filter.accountId,
        since: filter.since,
        bulkId: orNull(filter.bulkId),
        messageId: orNull(filter.messageId),
        entityId: orNull(filter.entityId),
        applicationId: orNull(filter.applicationId),
        campaignReferenceId: orNull(filter.campaignReferenceId),
        limit: filter.limit,
        now,
      }),
    ),
  );

  constructor(private readonly db: Db) {}

  /** Queues a pull report inside the caller's transaction (status changes produce them). */
  insertReport(accountId: string, messagePk: number, report: ReportData, createdAt: number): void {
    this.sql().insert.run(
      accountId,
      messagePk,
      report.bulkId,
      report.messageId,
      orNull(report.entityId),
      orNull(report.applicationId),
      orNull(report.campaignReferenceId),
      createdAt,
      JSON.stringify(report),
    );
  }

  async consume(filter: ReportFilter): Promise<ReportData[]> {
    const rows = await withoutBlockingOnLocks(this.db, () => this.consumeTransaction().immediate(filter, Date.now()));
    return rows.sort((a, b) => a.id - b.id).map((row) => parseJson<ReportData>(row.data));
  }
}
