/**
 * Infobip retries a failing webhook after `1 min + 1 min × n²`, n being the retries made so far:
 * 1, 2, 5, 10, 17 … minutes after each failure. `retryMs` is the minute (the delay before the first
 * retry), so tests and impatient installs can shrink the whole schedule.
 */
export function retryDelayMs(retryMs: number, failures: number): number {
  const retriesSoFar = failures - 1;
  return retryMs + retryMs * retriesSoFar * retriesSoFar;
}

export type AttemptOutcome = 'delivered' | 'retry' | 'failed';

export type NextItemState = { state: 'delivered' } | { state: 'pending'; dueAt: number } | { state: 'failed' };

/** What happens to a batch after its `attemptNo`-th POST (1-based), given whether it succeeded. */
export function settle(
  ok: boolean,
  attemptNo: number,
  policy: { retryMs: number; maxAttempts: number; now: number },
): { outcome: AttemptOutcome; next: NextItemState } {
  if (ok) return { outcome: 'delivered', next: { state: 'delivered' } };
  if (attemptNo >= policy.maxAttempts) return { outcome: 'failed', next: { state: 'failed' } };
  return { outcome: 'retry', next: { state: 'pending', dueAt: policy.now + retryDelayMs(policy.retryMs, attemptNo) } };
}
