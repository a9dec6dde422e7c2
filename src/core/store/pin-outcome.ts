import type { PinRecord, VerifyOutcome } from './types.js';

/** Why a PIN took no verification: expired first, then attempts used up, then verified once already. */
export function classifyRefusal(pin: PinRecord, now: number): Exclude<VerifyOutcome['result'], 'verified' | 'wrong'> {
  if (pin.expiresAt <= now) return 'expired';
  if (pin.wrongAttempts >= pin.maxAttempts) return 'exhausted';
  return 'already-verified';
}
