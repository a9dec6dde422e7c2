import type { RateWindowStore, SecretStore } from '../types.js';
import { preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';

export class SqliteRateWindowStore implements RateWindowStore {
  private readonly sql = preparedOnce(() => ({
    // A window's first use inserts it; later ones count only while under the limit.
    take: this.db.prepare<{ key: string; start: number; end: number; limit: number }, { count: number }>(
      `INSERT INTO rate_windows (key, window_start, count, ends_at) VALUES (@key, @start, 1, @end)
       ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 WHERE count < @limit
       RETURNING count`,
    ),
    purge: this.db.prepare<[number]>('DELETE FROM rate_windows WHERE ends_at < ?'),
  }));

  constructor(private readonly db: Db) {}

  async take(key: string, windowMs: number, limit: number, now: number): Promise<boolean> {
    if (limit < 1) return false;
    const start = now - (now % windowMs);
    const row = await withoutBlockingOnLocks(this.db, () => this.sql().take.get({ key, start, end: start + windowMs, limit }));
    return row !== undefined;
  }

  async purgeBefore(before: number): Promise<number> {
    return (await withoutBlockingOnLocks(this.db, () => this.sql().purge.run(before))).changes;
  }
}

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
