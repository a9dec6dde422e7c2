/**
 * Infobip retries a failing webhook after `1 min + 1 min × n²` (n = retries so far); `retryMs` is the
 * minute, so tests and impatient installs can shrink the whole schedule.
 */
export function retryDelayMs(retryMs: number, failures: number): number {
  return retryMs + retryMs * failures * failures;
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
