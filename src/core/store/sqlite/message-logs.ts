import type Database from 'better-sqlite3';
import type { MessageLogFilter } from '../types.js';
import type { MessageRow } from './message-rows.js';
import type { Db } from './shared.js';

/**
 * Builds the message-log query from the filters present. Lists bind as one JSON array each
 * (`IN (SELECT value FROM json_each(?))`), so the SQL text depends only on which filters are set and
 * the statement cache stays small.
 */
export class MessageLogQuery {
  private readonly statements = new Map<string, Database.Statement<unknown[], MessageRow>>();

  constructor(private readonly db: Db) {}

  run(filter: MessageLogFilter): MessageRow[] {
    const where: string[] = ['account_id = ?', 'created_at >= ?', 'channel = ?'];
    const params: unknown[] = [filter.accountId, filter.since, filter.channel ?? 'SMS'];
    const add = (condition: string, value: unknown): void => {
      where.push(condition);
      params.push(value);
    };
    const addList = (column: string, values: string[] | undefined): void => {
      if (values !== undefined) add(`${column} IN (SELECT value FROM json_each(?))`, JSON.stringify(values));
    };

    if (filter.sender !== undefined) add('sender = ?', filter.sender);
    if (filter.destination !== undefined) add('destination = ?', filter.destination);
    addList('bulk_id', filter.bulkIds);
    addList('message_id', filter.messageIds);
    addList('campaign_reference_id', filter.campaignReferenceIds);
    if (filter.statusGroupId !== undefined) add('status_group_id = ?', filter.statusGroupId);
    if (filter.sentSince !== undefined) add('coalesce(sent_at, created_at) >= ?', filter.sentSince);
    if (filter.sentUntil !== undefined) add('coalesce(sent_at, created_at) <= ?', filter.sentUntil);
    // mcc_mnc is the concatenation: 3-digit MCC, then the MNC.
    if (filter.mcc !== undefined) add('substr(mcc_mnc, 1, 3) = ?', filter.mcc);
    if (filter.mnc !== undefined) add('substr(mcc_mnc, 4) = ?', filter.mnc);
    if (filter.entityId !== undefined) add('entity_id = ?', filter.entityId);
    if (filter.applicationId !== undefined) add('application_id = ?', filter.applicationId);
    if (filter.beforePk !== undefined) add('pk < ?', filter.beforePk);

    const sql = `SELECT * FROM messages WHERE ${where.join(' AND ')} ORDER BY pk DESC LIMIT ?`;
    params.push(filter.limit);
    return this.statement(sql).all(...params);
  }

  private statement(sql: string): Database.Statement<unknown[], MessageRow> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], MessageRow>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
