import type { ReportData, ReportFilter, ReportStore } from '../types.js';
import { and, type Fragment, type Sql } from './shared.js';

export class PgReportStore implements ReportStore {
  constructor(private readonly sql: Sql) {}

  async consume(filter: ReportFilter): Promise<ReportData[]> {
    if (filter.limit <= 0) return [];
    const sql = this.sql;
    const where: Fragment[] = [
      sql`account_id = ${filter.accountId}`,
      sql`consumed_at IS NULL`,
      sql`created_at >= ${filter.since}`,
    ];
    if (filter.bulkId !== undefined) where.push(sql`bulk_id = ${filter.bulkId}`);
    if (filter.messageId !== undefined) where.push(sql`message_id = ${filter.messageId}`);
    if (filter.entityId !== undefined) where.push(sql`entity_id = ${filter.entityId}`);
    if (filter.applicationId !== undefined) where.push(sql`application_id = ${filter.applicationId}`);
    if (filter.campaignReferenceId !== undefined) {
      where.push(sql`campaign_reference_id = ${filter.campaignReferenceId}`);
    }
    const rows = await sql`
      UPDATE reports SET consumed_at = ${Date.now()}
      WHERE id IN (
        SELECT id FROM reports WHERE ${and(sql, where)}
        ORDER BY id LIMIT ${filter.limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, data`;
    return rows
      .map((r) => ({ id: r.id as number, data: r.data as ReportData }))
      .sort((a, b) => a.id - b.id)
      .map((r) => r.data);
  }
}
