import type { SecretStore } from '../types.js';
import { preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';

export class SqliteSecretStore implements SecretStore {
  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare<[string, string]>('INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
    get: this.db.prepare<[string], string>('SELECT value FROM secrets WHERE name = ?').pluck(),
  }));

  constructor(private readonly db: Db) {}

  async getOrCreate(name: string, create: () => string): Promise<string> {
    const existing = this.sql().get.get(name);
    if (existing !== undefined) return existing;
    await withoutBlockingOnLocks(this.db, () => this.sql().insert.run(name, create()));
    return this.sql().get.get(name)!;
  }
}
