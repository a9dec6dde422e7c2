import type { Logger } from '../../logger.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/types.js';

/**
 * Keeps the store from growing without bound: finished messages (not while their pull report
 * waits), consumed inbound messages, settled webhook items and attempts older than the retention
 * are deleted periodically, and so are calls that ended before the calls retention (with their
 * timelines), audio files past their expiry, PINs expired before the retention and rate windows
 * that ended.
 * The API only reads the last 48 hours of messages and 5 days of calls, so a retention above that
 * loses nothing visible.
 */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly deps: { store: Store; clock: Clock; log: Logger; retentionMs: number; callsRetentionMs?: number; everyMs?: number },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.deps.everyMs ?? 10 * 60_000);
    this.timer.unref();
  }

  /** Deletes what is older than the retention; returns messages removed. */
  runOnce(): Promise<number> {
    this.running ??= this.purge()
      .then(
        (removed) => {
          if (removed > 0) this.deps.log.info({ removed }, 'retention: old messages removed');
          return removed;
        },
        (error: unknown) => {
          this.deps.log.error({ err: error }, 'retention sweep failed');
          return 0;
        },
      )
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async purge(): Promise<number> {
    const { store, clock, retentionMs } = this.deps;
    const now = clock.now();
    const removed = await store.messages.purgeBefore(now - retentionMs);
    await store.calls.purgeBefore(now - (this.deps.callsRetentionMs ?? retentionMs));
    await store.audio.purgeExpired(now);
    await store.pins.purgeBefore(now - retentionMs);
    await store.rateWindows.purgeBefore(now);
    return removed;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
