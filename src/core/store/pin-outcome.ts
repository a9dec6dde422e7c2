import type { PinCounts, PinRecord, VerifyOutcome } from './types.js';

/** Why a PIN took no verification: expired first, then attempts used up, then verified once already. */
export function classifyRefusal(pin: PinRecord, now: number): Exclude<VerifyOutcome['result'], 'verified' | 'wrong'> {
  if (pin.expiresAt <= now) return 'expired';
  if (pin.wrongAttempts >= pin.maxAttempts) return 'exhausted';
  return 'already-verified';
}

/** The counts a verification's update returns, from either driver's row. */
export function pinCountsOf(row: { wrong_attempts: number; max_attempts: number; verified_at: number | null }): PinCounts {
  const counts: PinCounts = { wrongAttempts: row.wrong_attempts, maxAttempts: row.max_attempts };
  if (row.verified_at !== null) counts.verifiedAt = row.verified_at;
  return counts;
}
