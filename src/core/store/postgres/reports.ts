import { finalReportOf } from '../report-data.js';
import type { ReportData, ReportFilter, ReportStore } from '../types.js';
import { toMessage } from './messages.js';
import { and, type Fragment, type Sql } from './shared.js';

/** Pull reports: final messages flagged `report_pending`, consumed by clearing the flag. */
export class PgReportStore implements ReportStore {
  constructor(private readonly sql: Sql) {}

  async consume(filter: ReportFilter): Promise<ReportData[]> {
    if (filter.limit <= 0) return [];
    const sql = this.sql;
    const where: Fragment[] = [
      sql`account_id = ${filter.accountId}`,
      sql`report_pending`,
      sql`done_at >= ${filter.since}`,
      filter.api === 'rcs' ? sql`api = 'rcs2'` : sql`api <> 'rcs2'`,
    ];
    if (filter.bulkId !== undefined) where.push(sql`bulk_id = ${filter.bulkId}`);
    if (filter.messageId !== undefined) where.push(sql`message_id = ${filter.messageId}`);
    if (filter.entityId !== undefined) where.push(sql`entity_id = ${filter.entityId}`);
    if (filter.applicationId !== undefined) where.push(sql`application_id = ${filter.applicationId}`);
    if (filter.campaignReferenceId !== undefined) {
      where.push(sql`campaign_reference_id = ${filter.campaignReferenceId}`);
    }
    const rows = await sql`
      UPDATE messages SET report_pending = NULL
      WHERE pk IN (
        SELECT pk FROM messages WHERE ${and(sql, where)}
        ORDER BY done_at, pk LIMIT ${filter.limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING *`;
    // RETURNING does not follow the subquery's order.
    return rows
      .map(toMessage)
      .sort((a, b) => a.doneAt! - b.doneAt! || a.pk - b.pk)
      .map(finalReportOf);
  }
}
