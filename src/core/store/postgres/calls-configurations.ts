import type { CallsConfiguration, CallsConfigurationStore } from '../types.js';
import { opt, type Row, type Sql } from './shared.js';

function toConfiguration(r: Row): CallsConfiguration {
  const c: CallsConfiguration = { accountId: r.account_id, id: r.id, createdAt: r.created_at };
  if (r.name !== null) c.name = r.name;
  return c;
}

export class PgCallsConfigurationStore implements CallsConfigurationStore {
  constructor(private readonly sql: Sql) {}

  async create(c: CallsConfiguration): Promise<'created' | 'duplicate'> {
    const rows = await this.sql`
      INSERT INTO calls_configurations (account_id, id, name, created_at) VALUES (${c.accountId}, ${c.id}, ${opt(c.name)}, ${c.createdAt})
      ON CONFLICT (account_id, id) DO NOTHING RETURNING id`;
    return rows.length > 0 ? 'created' : 'duplicate';
  }

  async get(accountId: string, id: string): Promise<CallsConfiguration | undefined> {
    const rows = await this.sql`SELECT * FROM calls_configurations WHERE account_id = ${accountId} AND id = ${id}`;
    return rows.length > 0 ? toConfiguration(rows[0]!) : undefined;
  }

  async list(accountId: string, page: number, size: number): Promise<{ results: CallsConfiguration[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.sql`SELECT * FROM calls_configurations WHERE account_id = ${accountId} ORDER BY created_at, id LIMIT ${size} OFFSET ${page * size}`,
      this.sql`SELECT count(*)::int8 AS n FROM calls_configurations WHERE account_id = ${accountId}`,
    ]);
    return { results: rows.map(toConfiguration), total: count[0]!.n };
  }

  async update(accountId: string, id: string, name: string | undefined): Promise<CallsConfiguration | undefined> {
    const rows = await this.sql`UPDATE calls_configurations SET name = ${opt(name)} WHERE account_id = ${accountId} AND id = ${id} RETURNING *`;
    return rows.length > 0 ? toConfiguration(rows[0]!) : undefined;
  }

  async delete(accountId: string, id: string): Promise<CallsConfiguration | undefined> {
    const rows = await this.sql`DELETE FROM calls_configurations WHERE account_id = ${accountId} AND id = ${id} RETURNING *`;
    return rows.length > 0 ? toConfiguration(rows[0]!) : undefined;
  }
}
