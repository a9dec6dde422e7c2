import type { RateWindowStore, SecretStore } from '../types.js';
import type { Sql } from './shared.js';

export class PgRateWindowStore implements RateWindowStore {
  constructor(private readonly sql: Sql) {}

  async take(key: string, windowMs: number, limit: number, now: number): Promise<boolean> {
    if (limit < 1) return false;
    const start = now - (now % windowMs);
    // A window's first use inserts it; later ones count only while under the limit. The commit does
    // not wait for the WAL flush (set_config … true is SET LOCAL for this statement's transaction):
    // an application's window is one row every send updates, and a commit that waits holds its lock
    // through the flush, so sends would go one flush at a time. A crash of the database may forget
    // the last few counts, which only lets a few more requests through once.
    const rows = await this.sql`
      INSERT INTO rate_windows (key, window_start, count, ends_at)
      SELECT ${key}, ${start}, 1, ${start + windowMs} FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit
      ON CONFLICT (key, window_start) DO UPDATE SET count = rate_windows.count + 1 WHERE rate_windows.count < ${limit}
      RETURNING count`;
    return rows.length > 0;
  }

  async purgeBefore(before: number): Promise<number> {
    const rows = await this.sql`DELETE FROM rate_windows WHERE ends_at < ${before} RETURNING key`;
    return rows.length;
  }
}

export class PgSecretStore implements SecretStore {
  constructor(private readonly sql: Sql) {}

  async getOrCreate(name: string, create: () => string): Promise<string> {
    await this.sql`INSERT INTO secrets (name, value) VALUES (${name}, ${create()}) ON CONFLICT (name) DO NOTHING`;
    const rows = await this.sql`SELECT value FROM secrets WHERE name = ${name}`;
    return rows[0]!.value as string;
  }
}
