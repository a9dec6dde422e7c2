import type { CallsConfiguration, CallsConfigurationStore } from '../types.js';
import { nullToUndefined, orNull, preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';
import { omitUndefined } from '../../omit-undefined.js';

interface ConfigurationRow {
  account_id: string;
  id: string;
  name: string | null;
  created_at: number;
}

const toConfiguration = (row: ConfigurationRow): CallsConfiguration =>
  omitUndefined({ accountId: row.account_id, id: row.id, name: nullToUndefined(row.name), createdAt: row.created_at });

export class SqliteCallsConfigurationStore implements CallsConfigurationStore {
  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare<[string, string, string | null, number]>(
      `INSERT INTO calls_configurations (account_id, id, name, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id, id) DO NOTHING`,
    ),
    get: this.db.prepare<[string, string], ConfigurationRow>('SELECT * FROM calls_configurations WHERE account_id = ? AND id = ?'),
    page: this.db.prepare<[string, number, number], ConfigurationRow>(
      'SELECT * FROM calls_configurations WHERE account_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?',
    ),
    count: this.db.prepare<[string], number>('SELECT count(*) FROM calls_configurations WHERE account_id = ?').pluck(),
    update: this.db.prepare<[string | null, string, string], ConfigurationRow>(
      'UPDATE calls_configurations SET name = ? WHERE account_id = ? AND id = ? RETURNING *',
    ),
    delete: this.db.prepare<[string, string], ConfigurationRow>('DELETE FROM calls_configurations WHERE account_id = ? AND id = ? RETURNING *'),
  }));

  constructor(private readonly db: Db) {}

  async create(configuration: CallsConfiguration): Promise<'created' | 'duplicate'> {
    const { accountId, id, name, createdAt } = configuration;
    const result = await withoutBlockingOnLocks(this.db, () => this.sql().insert.run(accountId, id, orNull(name), createdAt));
    return result.changes > 0 ? 'created' : 'duplicate';
  }

  async get(accountId: string, id: string): Promise<CallsConfiguration | undefined> {
    const row = this.sql().get.get(accountId, id);
    return row && toConfiguration(row);
  }

  async list(accountId: string, page: number, size: number): Promise<{ results: CallsConfiguration[]; total: number }> {
    const { page: pageOf, count } = this.sql();
    return { results: pageOf.all(accountId, size, page * size).map(toConfiguration), total: count.get(accountId) ?? 0 };
  }

  async update(accountId: string, id: string, name: string | undefined): Promise<CallsConfiguration | undefined> {
    const row = await withoutBlockingOnLocks(this.db, () => this.sql().update.get(orNull(name), accountId, id));
    return row && toConfiguration(row);
  }

  async delete(accountId: string, id: string): Promise<CallsConfiguration | undefined> {
    const row = await withoutBlockingOnLocks(this.db, () => this.sql().delete.get(accountId, id));
    return row && toConfiguration(row);
  }
}
