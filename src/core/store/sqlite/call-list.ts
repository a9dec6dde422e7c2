import type Database from 'better-sqlite3';
import { callConditions } from '../call-filter.js';
import type { CallFilter, CallRecord } from '../types.js';
import { toCall } from './call-rows.js';
import type { Db } from './shared.js';

type Statement = Database.Statement<unknown[], { pk: number; body: string }>;

/** A page of calls (newest first) and how many match, from the filters present. */
export class CallListQuery {
  private readonly statements = new Map<string, { page: Statement; count: Database.Statement<unknown[], number> }>();

  constructor(private readonly db: Db) {}

  run(filter: CallFilter): { results: CallRecord[]; total: number } {
    const conditions = callConditions(filter);
    const where = conditions.map(([column, operator]) => `${column} ${operator} ?`).join(' AND ');
    const values = conditions.map(([, , value]) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
    const { page, count } = this.statementsFor(where);
    return {
      results: page.all(...values, filter.size, filter.page * filter.size).map(toCall),
      total: count.get(...values) ?? 0,
    };
  }

  private statementsFor(where: string) {
    let statements = this.statements.get(where);
    if (!statements) {
      statements = {
        page: this.db.prepare(`SELECT pk, body FROM calls WHERE ${where} ORDER BY start_time DESC, pk DESC LIMIT ? OFFSET ?`),
        count: this.db.prepare<unknown[], number>(`SELECT count(*) FROM calls WHERE ${where}`).pluck(),
      };
      this.statements.set(where, statements);
    }
    return statements;
  }
}
