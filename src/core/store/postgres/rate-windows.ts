import type { RateWindowStore, RateWindowTake, SecretStore } from '../types.js';
import type { Sql } from './shared.js';
import { TurnRounds } from './turn-rounds.js';

interface Take {
  key: string;
  start: number;
  end: number;
  limit: number;
}

export class PgRateWindowStore implements RateWindowStore {
  /** The single takes of one turn (a verification's), one statement a round. */
  private readonly takes: TurnRounds<Take, boolean>;

  constructor(private readonly sql: Sql) {
    this.takes = new TurnRounds(
      (take) => `${take.start}:${take.key}`,
      (takes) => this.takeRound(takes),
    );
  }

  async take(key: string, windowMs: number, limit: number, now: number): Promise<boolean> {
    if (limit < 1) return false;
    const start = now - (now % windowMs);
    return this.takes.add({ key, start, end: start + windowMs, limit });
  }

  /**
   * A window's first use inserts it; later ones count only while under the limit. The commit does
   * not wait for the WAL flush (set_config … true is SET LOCAL for this statement's transaction): an
   * application's window is one row every send updates, and a commit that waits holds its lock
   * through the flush, so sends would go one flush at a time. A crash of the database may forget the
   * last few counts, which only lets a few more requests through once.
   */
  private async takeRound(takes: Take[]): Promise<boolean[]> {
    const rows = await this.sql`
      INSERT INTO rate_windows (key, window_start, count, ends_at)
      SELECT u.key, u.window_start, 1, u.ends_at
      FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit,
           unnest(${takes.map((t) => t.key)}::text[], ${takes.map((t) => t.start)}::int8[], ${takes.map((t) => t.end)}::int8[],
                  ${takes.map((t) => t.limit)}::int8[]) AS u(key, window_start, ends_at, lim)
      ON CONFLICT (key, window_start) DO UPDATE SET count = rate_windows.count + 1
        WHERE rate_windows.count < (
          SELECT l.lim FROM unnest(${takes.map((t) => t.key)}::text[], ${takes.map((t) => t.start)}::int8[], ${takes.map((t) => t.limit)}::int8[]) AS l(key, window_start, lim)
          WHERE l.key = rate_windows.key AND l.window_start = rate_windows.window_start)
      RETURNING key, window_start`;
    const taken = new Set(rows.map((row) => `${row.window_start}:${row.key}`));
    return takes.map((take) => taken.has(`${take.start}:${take.key}`));
  }

  /**
   * One statement counts every window still under its limit (committed as `take` commits); when
   * one was full, the others are given back by a second statement, so that in between another
   * request may see them one higher than they end.
   */
  async takeAll(takes: RateWindowTake[], now: number): Promise<number> {
    const keys = takes.map((t) => t.key);
    const starts = takes.map((t) => now - (now % t.windowMs));
    const ends = takes.map((t, i) => starts[i]! + t.windowMs);
    const limits = takes.map((t) => t.limit);
    const counted = await this.sql`
      INSERT INTO rate_windows (key, window_start, count, ends_at)
      SELECT u.key, u.window_start, 1, u.ends_at
      FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit,
           unnest(${keys}::text[], ${starts}::int8[], ${ends}::int8[], ${limits}::int8[]) AS u(key, window_start, ends_at, lim)
      WHERE u.lim >= 1
      ON CONFLICT (key, window_start) DO UPDATE SET count = rate_windows.count + 1
        WHERE rate_windows.count < (SELECT l.lim FROM unnest(${keys}::text[], ${limits}::int8[]) AS l(key, lim) WHERE l.key = rate_windows.key)
      RETURNING key`;
    const taken = new Set(counted.map((r) => r.key as string));
    const refused = keys.findIndex((key) => !taken.has(key));
    if (refused < 0) return -1;
    const back = keys.filter((key) => taken.has(key));
    const backStarts = back.map((key) => starts[keys.indexOf(key)]!);
    if (back.length > 0) {
      await this.sql`
        UPDATE rate_windows r SET count = r.count - 1
        FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit,
             unnest(${back}::text[], ${backStarts}::int8[]) AS u(key, window_start)
        WHERE r.key = u.key AND r.window_start = u.window_start`;
    }
    return refused;
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
