import type Database from 'better-sqlite3';
import type { ApiFamily, MessageBrowseFilter, MessageChannel, MessageContent, MessageSummary, NewMessage } from '../types.js';
import { nullToUndefined, parseJson, type Db } from './shared.js';
import { omitUndefined } from '../../omit-undefined.js';

/**
 * What the text filter searches: an SMS's text (or a binary one's hex), an RCS message's text, or its
 * card's title and description. SQLite's lower() folds ASCII letters only.
 */
const SEARCHED_TEXT = `lower(coalesce(json_extract(content, '$.text'), json_extract(content, '$.hex'), '') || ' ' ||
  coalesce(json_extract(content, '$.content.title'), '') || ' ' || coalesce(json_extract(content, '$.content.description'), ''))`;

/** Only the columns a list shows: a page of 10 000 rows reads and parses a third of each row. */
const COLUMNS = `pk, message_id, bulk_id, channel, api, sender, destination, content, encoding, message_count,
  status_group_id, status_id, error_id, created_at, sent_at, done_at, json_extract(extras, '$.failoverOf') AS failover_of`;

interface SummaryRow {
  pk: number;
  message_id: string;
  bulk_id: string;
  channel: MessageChannel;
  api: ApiFamily;
  sender: string | null;
  destination: string;
  content: string;
  encoding: NewMessage['encoding'];
  message_count: number;
  status_group_id: number;
  status_id: number;
  error_id: number;
  created_at: number;
  sent_at: number | null;
  done_at: number | null;
  failover_of: string | null;
}

const toSummary = (row: SummaryRow): MessageSummary =>
  omitUndefined({
    pk: row.pk,
    messageId: row.message_id,
    bulkId: row.bulk_id,
    channel: row.channel === 'SMS' ? undefined : row.channel,
    api: row.api,
    sender: nullToUndefined(row.sender),
    destination: row.destination,
    content: parseJson<MessageContent>(row.content),
    encoding: row.encoding,
    messageCount: row.message_count,
    status: { groupId: row.status_group_id, id: row.status_id },
    errorId: row.error_id,
    createdAt: row.created_at,
    sentAt: nullToUndefined(row.sent_at),
    doneAt: nullToUndefined(row.done_at),
    failoverOf: nullToUndefined(row.failover_of),
  });

/**
 * The console's list of messages: one walk of an account index (messages_account_pk, or the RCS
 * one) from the newest (or from `beforePk`) down, filtered, stopping at the limit. Statements are
 * cached per set of filters.
 */
export class MessageBrowseQuery {
  private readonly statements = new Map<string, Database.Statement<unknown[], SummaryRow>>();

  constructor(private readonly db: Db) {}

  run(filter: MessageBrowseFilter): MessageSummary[] {
    const where: string[] = ['account_id = ?', 'created_at >= ?'];
    const params: unknown[] = [filter.accountId, filter.since];
    const add = (condition: string, ...values: unknown[]): void => {
      where.push(condition);
      params.push(...values);
    };
    if (filter.pks !== undefined) add('pk IN (SELECT value FROM json_each(?))', JSON.stringify(filter.pks));
    if (filter.beforePk !== undefined) add('pk < ?', filter.beforePk);
    if (filter.channel !== undefined) add('channel = ?', filter.channel);
    if (filter.numbers !== undefined) {
      const numbers = JSON.stringify(filter.numbers);
      add('(destination IN (SELECT value FROM json_each(?)) OR sender IN (SELECT value FROM json_each(?)))', numbers, numbers);
    }
    if (filter.statusGroupId !== undefined) add('status_group_id = ?', filter.statusGroupId);
    if (filter.bulkId !== undefined) add('bulk_id = ?', filter.bulkId);
    if (filter.text !== undefined) add(`instr(${SEARCHED_TEXT}, ?) > 0`, filter.text.toLowerCase());
    params.push(filter.limit);
    const sql = `SELECT ${COLUMNS} FROM messages WHERE ${where.join(' AND ')} ORDER BY pk DESC LIMIT ?`;
    return this.statement(sql).all(...params).map(toSummary);
  }

  private statement(sql: string): Database.Statement<unknown[], SummaryRow> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], SummaryRow>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
