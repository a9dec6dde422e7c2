const THROTTLE_BACKOFF_MIN_MS = 200;
const THROTTLE_BACKOFF_MAX_MS = 5_000;
/** A steady rate may send a tenth of a second's worth at once, so it does not wait on timer granularity. */
const BURST_MS = 100;

/**
 * When a connection may write its next submit_sm: the configured rate (messages per second, 0 =
 * unlimited) and the pause the SMSC asked for by throttling, which doubles while throttling goes
 * on (200 ms up to 5 s) and resets at the first accepted answer.
 */
export class SendPacing {
  private readonly interval: number;
  private nextSendAt = 0;
  private pausedUntil = 0;
  private backoff = THROTTLE_BACKOFF_MIN_MS;

  constructor(throughput: number) {
    this.interval = throughput > 0 ? 1000 / throughput : 0;
  }

  /** Milliseconds to wait before the next send (0 = now). */
  waitMs(now: number): number {
    return Math.max(0, Math.max(this.pausedUntil, this.nextSendAt) - now);
  }

  sent(now: number): void {
    if (this.interval > 0) this.nextSendAt = Math.max(this.nextSendAt + this.interval, now - BURST_MS);
  }

  throttled(now: number): void {
    this.pausedUntil = now + this.backoff;
    this.backoff = Math.min(this.backoff * 2, THROTTLE_BACKOFF_MAX_MS);
  }

  answered(): void {
    this.backoff = THROTTLE_BACKOFF_MIN_MS;
  }
}
