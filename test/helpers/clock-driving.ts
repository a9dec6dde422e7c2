import type { ManualClock } from '../../src/core/clock.js';
import { eventually } from './server.js';

/**
 * For work that needs both real sockets and the passing of a ManualClock's time, when the test
 * cannot know at which instant of the clock the I/O lands (an answer that arms a timer on the other
 * side): moves the clock `stepMs` at a time, letting I/O run between steps, until `check` gives a
 * value other than undefined (within `timeoutMs` of real time).
 */
export function advanceUntil<T>(clock: ManualClock, stepMs: number, check: () => T | undefined, timeoutMs = 5000): Promise<T> {
  return eventually(async () => {
    const value = check();
    if (value !== undefined) return value;
    await clock.advanceAsync(stepMs);
    return undefined;
  }, timeoutMs);
}

/** Moves the clock as `advanceUntil` does until `work` settles; resolves or rejects as it does. */
export async function advanceUntilSettled<T>(clock: ManualClock, stepMs: number, work: Promise<T>, timeoutMs?: number): Promise<T> {
  let settled = false;
  const done = (): void => void (settled = true);
  work.then(done, done);
  await advanceUntil(clock, stepMs, () => (settled ? true : undefined), timeoutMs);
  return work;
}
