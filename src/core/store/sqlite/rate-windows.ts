import type { RateWindowStore, RateWindowTake } from '../types.js';
import { preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';

export interface WindowMemory {
  /** How long a count may stay only in memory before it is written to the database. */
  flushAfterMs: number;
  /** Windows kept in memory past which those already written are dropped, oldest first. */
  maxWindows: number;
}

const DEFAULT_MEMORY: WindowMemory = { flushAfterMs: 200, maxWindows: 50_000 };

interface WindowCount {
  key: string;
  start: number;
  end: number;
  count: number;
}

/**
 * Rate windows counted in this process's memory and written to the database behind the requests,
 * every `flushAfterMs` (200 ms) in one transaction. An embedded store belongs to one server
 * process, and only its HTTP thread counts windows, so memory holds the true count and a take is a
 * comparison and an increment: no write transaction per PIN sent or verified (each wrote a few
 * pages of the WAL). A window that may have been counted before (by an earlier process, or before
 * it was dropped from memory) is read from the database, so counts carry over a restart. A crash
 * forgets at most the last `flushAfterMs` of counts, which only lets that many requests through
 * once more; a power cut could already forget the last few (the counts never waited for the disk).
 */
export class SqliteRateWindowStore implements RateWindowStore {
  private readonly sql = preparedOnce(() => ({
    get: this.db.prepare<[string, number], number>('SELECT count FROM rate_windows WHERE key = ? AND window_start = ?').pluck(),
    current: this.db.prepare<[number, number], { key: string; start: number; end: number; count: number }>(
      'SELECT key, window_start AS start, ends_at AS end, count FROM rate_windows WHERE ends_at > ? LIMIT ?',
    ),
    put: this.db.prepare<{ key: string; start: number; end: number; count: number }>(
      `INSERT INTO rate_windows (key, window_start, count, ends_at) VALUES (@key, @start, @count, @end)
       ON CONFLICT (key, window_start) DO UPDATE SET count = excluded.count`,
    ),
    purge: this.db.prepare<[number]>('DELETE FROM rate_windows WHERE ends_at < ?'),
  }));

  private readonly writeAll = preparedOnce(() =>
    this.db.transaction((counts: WindowCount[]) => {
      const { put } = this.sql();
      for (const { key, start, end, count } of counts) put.run({ key, start, end, count });
    }),
  );

  private readonly windows = new Map<string, WindowCount>();
  private readonly unwritten = new Set<WindowCount>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** The latest time a take was counted at: windows that ended before it are dropped from memory once written. */
  private latest = 0;
  /**
   * The time of the first take. Windows that were current then were all read into memory
   * (`loadedAll`), unless there were too many; those that began later were counted here from their
   * start, so the database has nothing of theirs to read.
   */
  private firstTake: number | undefined;
  private loadedAll = false;
  /** Current windows that began at or before this time may have been dropped from memory (past its cap). */
  private droppedUpTo = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly memory: WindowMemory = DEFAULT_MEMORY,
  ) {}

  async take(key: string, windowMs: number, limit: number, now: number): Promise<boolean> {
    return (await this.takeAll([{ key, windowMs, limit }], now)) < 0;
  }

  async takeAll(takes: RateWindowTake[], now: number): Promise<number> {
    // No await from the first read to the last increment: concurrent requests see each other's takes.
    const counts = takes.map((take) => this.window(take.key, take.windowMs, now));
    const refused = takes.findIndex((take, i) => take.limit < 1 || counts[i]!.count >= take.limit);
    if (refused >= 0) return refused;
    for (const count of counts) {
      count.count += 1;
      this.unwritten.add(count);
    }
    this.latest = Math.max(this.latest, now);
    this.flushLater();
    return -1;
  }

  async purgeBefore(before: number): Promise<number> {
    await this.flush();
    for (const [id, count] of this.windows) if (count.end < before) this.windows.delete(id);
    return (await withoutBlockingOnLocks(this.db, () => this.sql().purge.run(before), false)).changes;
  }

  /** Writes every count not yet written; a failed write leaves them to the next flush. */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    while (this.flushing) await this.flushing;
    // Counts taken after the store closed have nowhere to go.
    if (this.unwritten.size === 0 || !this.db.open) return;
    const counts = [...this.unwritten];
    this.unwritten.clear();
    this.flushing = withoutBlockingOnLocks(this.db, () => this.writeAll()(counts), false).then(
      () => this.forgetOldWindows(),
      (error: unknown) => {
        for (const count of counts) this.unwritten.add(count);
        this.flushLater();
        throw error;
      },
    );
    try {
      await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }

  private flushLater(): void {
    this.flushTimer ??= setTimeout(() => void this.flush().catch(() => undefined), this.memory.flushAfterMs).unref();
  }

  private window(key: string, windowMs: number, now: number): WindowCount {
    const start = now - (now % windowMs);
    const id = `${start}:${key}`;
    const firstTake = this.firstTake ?? this.loadCurrentWindows(now);
    let count = this.windows.get(id);
    if (!count) {
      const end = start + windowMs;
      const stored = this.mayBeStored(start, end, firstTake) ? this.sql().get.get(key, start) : undefined;
      count = { key, start, end, count: stored ?? 0 };
      this.windows.set(id, count);
    }
    return count;
  }

  /**
   * Whether the database may hold a count of a window not in memory. A window that ended after the
   * first take and was dropped is not read again: it is only used again if the clock is set back.
   */
  private mayBeStored(start: number, end: number, firstTake: number): boolean {
    if (start <= this.droppedUpTo) return true;
    return this.loadedAll ? end <= firstTake : start <= firstTake;
  }

  /** At the first take, every window still current, when they fit in memory: then no take reads. */
  private loadCurrentWindows(now: number): number {
    this.firstTake = now;
    const current = this.sql().current.all(now, this.memory.maxWindows + 1);
    if (current.length <= this.memory.maxWindows) {
      for (const count of current) this.windows.set(`${count.start}:${count.key}`, count);
      this.loadedAll = true;
    }
    return now;
  }

  /** Written windows that have ended, then, past the memory cap, the oldest written ones: they can be read back. */
  private forgetOldWindows(): void {
    let excess = this.windows.size - this.memory.maxWindows;
    for (const [id, count] of this.windows) {
      if (this.unwritten.has(count) || (count.end > this.latest && excess <= 0)) continue;
      this.windows.delete(id);
      excess--;
      if (count.end > this.latest) this.droppedUpTo = Math.max(this.droppedUpTo, count.start);
    }
  }
}
