import type { RateWindowStore, RateWindowTake, SecretStore } from '../types.js';
import { preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';

/**
 * Counts are not waited onto the disk (as on PostgreSQL, where they commit asynchronously): a
 * request's own durable commit follows and syncs them with it, and a power cut before that may
 * forget the last few counts, which only lets a few more requests through once. Waiting would add
 * a sync of the WAL to every PIN sent and every verification.
 */
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

  private readonly takeAllTransaction = preparedOnce(() =>
    this.db.transaction((takes: readonly RateWindowTake[], now: number): number => {
      const refused = takes.findIndex((t) => !this.takeNow(t.key, t.windowMs, t.limit, now));
      // Throwing rolls the transaction back: a refused set of takes counts none.
      if (refused >= 0) throw new Refused(refused);
      return -1;
    }),
  );

  constructor(private readonly db: Db) {}

  async takeAll(takes: RateWindowTake[], now: number): Promise<number> {
    try {
      return await withoutBlockingOnLocks(this.db, () => this.takeAllTransaction().immediate(takes, now), false);
    } catch (error) {
      if (error instanceof Refused) return error.index;
      throw error;
    }
  }

  private takeNow(key: string, windowMs: number, limit: number, now: number): boolean {
    if (limit < 1) return false;
    const start = now - (now % windowMs);
    return this.sql().take.get({ key, start, end: start + windowMs, limit }) !== undefined;
  }

  async take(key: string, windowMs: number, limit: number, now: number): Promise<boolean> {
    if (limit < 1) return false;
    const start = now - (now % windowMs);
    const row = await withoutBlockingOnLocks(this.db, () => this.sql().take.get({ key, start, end: start + windowMs, limit }), false);
    return row !== undefined;
  }

  async purgeBefore(before: number): Promise<number> {
    return (await withoutBlockingOnLocks(this.db, () => this.sql().purge.run(before), false)).changes;
  }
}

class Refused extends Error {
  constructor(readonly index: number) {
    super(`rate window ${index} is full`);
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
