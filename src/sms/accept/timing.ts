import { nextWindowOpening } from '../../core/pipeline/delivery-window.js';
import type { DeliveryWindow } from '../../core/store/types.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Infobip caps validity at 48 h silently; it is also the default. */
export const MAX_VALIDITY_MS = 48 * HOUR;
/** `sendAt` may be at most 180 days ahead. */
export const MAX_SCHEDULE_AHEAD_MS = 180 * DAY;
/**
 * How far in the past a `sendAt` may lie and still mean "now". Clock skew and retried requests
 * produce slightly past times; a time further back is more likely a wrong date, so it is a 400.
 */
export const PAST_SEND_AT_TOLERANCE_MS = DAY;

export const SPEED_LIMIT_UNIT_MS = { MINUTE, HOUR, DAY } as const;
export const VALIDITY_UNIT_MS = { SECONDS: SECOND, MINUTES: MINUTE, HOURS: HOUR } as const;

export interface SpeedLimit {
  amount: number;
  unitMs: number;
}

/** Validity of `amount` in units of `unitMs`, capped at 48 h. */
export function validityMs(amount: number, unitMs: number): number {
  return Math.min(amount * unitMs, MAX_VALIDITY_MS);
}

export interface TimingInput {
  /** Acceptance time. */
  now: number;
  /** Effective scheduled time (already at least `now`), if any. */
  sendAt?: number;
  /** Position of the message among the request's accepted messages, 0-based, request order. */
  index: number;
  speedLimit?: SpeedLimit;
  window?: DeliveryWindow;
  validityMs: number;
}

/**
 * When a message may first be dispatched and when it expires. The speed limit is turned into
 * staggered due times here, so it survives restarts and needs no runtime limiter: the i-th message
 * is due floor(i / amount) units after the first. The delivery window then moves each due time to
 * the next moment the window is open.
 *
 * Validity counts from `dueAt`, the moment the message may first be sent. For an immediate message
 * that is acceptance time; for a scheduled, throttled or window-delayed message counting from
 * acceptance could expire it before (or just after) its first chance to be sent.
 */
export function messageTiming(input: TimingInput): { dueAt: number; validUntil: number } {
  let dueAt = input.sendAt ?? input.now;
  if (input.speedLimit !== undefined) {
    dueAt += Math.floor(input.index / input.speedLimit.amount) * input.speedLimit.unitMs;
  }
  if (input.window !== undefined) dueAt = nextWindowOpening(input.window, dueAt);
  return { dueAt, validUntil: dueAt + input.validityMs };
}
