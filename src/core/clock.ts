/** A pending callback of a Clock; `cancel()` is harmless after it ran. */
export interface Timer {
  cancel(): void;
}

/**
 * Time source and timers. Everything that compares against "now", or waits for a span of time
 * that matters to behaviour (deadlines, back-off, timeouts, rings), takes a Clock, so tests move
 * time instead of sleeping.
 */
export interface Clock {
  now(): number;
  /**
   * Runs `callback` once `ms` of this clock's time has passed. A timer of the system clock does
   * not keep the process alive: whatever owns it is kept alive by its sockets or its own loop.
   */
  setTimer(ms: number, callback: () => void): Timer;
}

const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, callback) {
    // Beyond 2^31 - 1 ms, setTimeout fires at once; a timer that far off fires early instead, and
    // whoever set it looks again.
    const handle = setTimeout(callback, Math.min(Math.max(0, ms), MAX_TIMEOUT_MS));
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
};

/** Runs `callback` every `ms` of the clock's time until cancelled. */
export function repeatEvery(clock: Clock, ms: number, callback: () => void): Timer {
  let current: Timer | undefined;
  let cancelled = false;
  const arm = (): void => {
    current = clock.setTimer(ms, () => {
      if (cancelled) return;
      arm();
      callback();
    });
  };
  arm();
  return {
    cancel: () => {
      cancelled = true;
      current?.cancel();
    },
  };
}

/** Resolves once `ms` of the clock's time has passed. */
export const sleepFor = (clock: Clock, ms: number): Promise<void> =>
  new Promise((resolve) => void clock.setTimer(ms, resolve));

interface ManualTimer {
  at: number;
  seq: number;
  callback: () => void;
  cancelled: boolean;
}

/**
 * A clock that only moves when told to; for tests and simulations. Its timers run while it is
 * advanced, each at its own instant and in order of due time, so a chain of timers (a back-off, a
 * ring that times out) plays out as it would in real time.
 */
export class ManualClock implements Clock {
  private timers: ManualTimer[] = [];
  private seq = 0;

  constructor(private current: number = Date.UTC(2025, 0, 1)) {}

  now(): number {
    return this.current;
  }

  setTimer(ms: number, callback: () => void): Timer {
    const timer: ManualTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, callback, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => void (timer.cancelled = true) };
  }

  /** Timers waiting to run. */
  get pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Moves time forward by `ms`, running the timers that fall due on the way; returns the new time. */
  advance(ms: number): number {
    const target = this.current + ms;
    for (let timer = this.nextDue(target); timer; timer = this.nextDue(target)) {
      this.current = Math.max(this.current, timer.at);
      timer.callback();
    }
    this.current = target;
    return this.current;
  }

  /**
   * Like `advance`, but lets promises and I/O callbacks run after each timer, so work a timer starts
   * (a reconnect, a write) gets going before the next timer is due.
   */
  async advanceAsync(ms: number): Promise<number> {
    const target = this.current + ms;
    for (let timer = this.nextDue(target); timer; timer = this.nextDue(target)) {
      this.current = Math.max(this.current, timer.at);
      timer.callback();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.current = target;
    return this.current;
  }

  /** Sets the time; moving forward runs the timers on the way, as `advance` does. */
  set(ms: number): void {
    if (ms > this.current) this.advance(ms - this.current);
    else this.current = ms;
  }

  private nextDue(target: number): ManualTimer | undefined {
    let best: ManualTimer | undefined;
    for (const timer of this.timers) {
      if (timer.cancelled || timer.at > target) continue;
      if (!best || timer.at < best.at || (timer.at === best.at && timer.seq < best.seq)) best = timer;
    }
    if (best) this.timers = this.timers.filter((t) => t !== best && !t.cancelled);
    return best;
  }
}
