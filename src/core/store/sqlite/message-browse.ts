import type Database from 'better-sqlite3';
import type { MessageBrowseFilter } from '../types.js';
import type { MessageRow } from './message-rows.js';
import type { Db } from './shared.js';

/**
 * What the text filter searches: an SMS's text (or a binary one's hex), an RCS message's text, or its
 * card's title and description. SQLite's lower() folds ASCII letters only.
 */
const SEARCHED_TEXT = `lower(coalesce(json_extract(content, '$.text'), json_extract(content, '$.hex'), '') || ' ' ||
  coalesce(json_extract(content, '$.content.title'), '') || ' ' || coalesce(json_extract(content, '$.content.description'), ''))`;

/**
 * The console's list of messages: one walk of an account index (messages_account_pk, or the RCS
 * one) from the newest (or from `beforePk`) down, filtered, stopping at the limit. Statements are
 * cached per set of filters.
 */
export class MessageBrowseQuery {
  private readonly statements = new Map<string, Database.Statement<unknown[], MessageRow>>();

  constructor(private readonly db: Db) {}

  run(filter: MessageBrowseFilter): MessageRow[] {
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
    const sql = `SELECT * FROM messages WHERE ${where.join(' AND ')} ORDER BY pk DESC LIMIT ?`;
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
