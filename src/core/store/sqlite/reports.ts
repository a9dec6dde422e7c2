import { finalReportOf } from '../report-data.js';
import type { ReportData, ReportFilter, ReportStore } from '../types.js';
import { toStoredMessage, type MessageRow } from './message-rows.js';
import { orNull, preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';

/** Pull reports: final messages flagged `report_pending`, consumed by clearing the flag. */
export class SqliteReportStore implements ReportStore {
  private readonly sql = preparedOnce(() => ({
    // Optional filters are `(@x IS NULL OR col = @x)` so one prepared statement serves every combination.
    consume: this.db.prepare<
      {
        accountId: string;
        rcs: 0 | 1;
        since: number;
        bulkId: string | null;
        messageId: string | null;
        entityId: string | null;
        applicationId: string | null;
        campaignReferenceId: string | null;
        limit: number;
      },
      MessageRow
    >(
      `UPDATE messages SET report_pending = NULL
       WHERE pk IN (
         SELECT pk FROM messages INDEXED BY messages_report_pending
         WHERE account_id = @accountId AND report_pending = 1 AND done_at >= @since
           AND (api = 'rcs2') = @rcs
           AND (@bulkId IS NULL OR bulk_id = @bulkId)
           AND (@messageId IS NULL OR message_id = @messageId)
           AND (@entityId IS NULL OR entity_id = @entityId)
           AND (@applicationId IS NULL OR application_id = @applicationId)
           AND (@campaignReferenceId IS NULL OR campaign_reference_id = @campaignReferenceId)
         ORDER BY done_at, pk LIMIT @limit)
       RETURNING *`,
    ),
  }));

  private readonly consumeTransaction = preparedOnce(() =>
    this.db.transaction((filter: ReportFilter) =>
      this.sql().consume.all({
        accountId: filter.accountId,
        rcs: filter.api === 'rcs' ? 1 : 0,
        since: filter.since,
        bulkId: orNull(filter.bulkId),
        messageId: orNull(filter.messageId),
        entityId: orNull(filter.entityId),
        applicationId: orNull(filter.applicationId),
        campaignReferenceId: orNull(filter.campaignReferenceId),
        limit: filter.limit,
      }),
    ),
  );

  constructor(private readonly db: Db) {}

  async consume(filter: ReportFilter): Promise<ReportData[]> {
    const rows = await withoutBlockingOnLocks(this.db, () => this.consumeTransaction().immediate(filter));
    // RETURNING does not follow the subquery's order.
    rows.sort((a, b) => a.done_at! - b.done_at! || a.pk - b.pk);
    return rows.map((row) => finalReportOf(toStoredMessage(row)));
  }
}
