import type { Clock } from '../core/clock.js';
import { STATUS } from '../network/smpp/codec.js';

export interface SimulatorFaults {
  /** Submits per second per session beyond which the answer is ESME_RTHROTTLED. */
  throttleRate?: number;
  /** Answer the next n submits ESME_RTHROTTLED. */
  throttleNext?: number;
  /** Answer the next n submits ESME_RMSGQFUL. */
  queueFullNext?: number;
  /** Answer the next `count` submits with `status`. */
  rejectNext?: { count: number; status: number };
  /** Accept n more submits, then drop every connection without answering the next one. */
  disconnectAfterSubmits?: number;
  /** Answer submits this much later. */
  responseDelayMs?: number;
  /** Answer binds ESME_RBINDFAIL. */
  refuseBinds?: boolean;
}

/** A connection's submits in the current second of the simulator's clock, for `throttleRate`. */
export interface RateWindow {
  windowStart: number;
  windowCount: number;
}

/** The command_status a fault imposes on this submit, if any; one-shot faults count down. */
export function faultRefusal(faults: SimulatorFaults, window: RateWindow, counts: { throttled: number }, clock: Clock): number | undefined {
  if (faults.throttleNext) {
    faults.throttleNext--;
    counts.throttled++;
    return STATUS.ESME_RTHROTTLED;
  }
  if (faults.queueFullNext) {
    faults.queueFullNext--;
    counts.throttled++;
    return STATUS.ESME_RMSGQFUL;
  }
  if (faults.rejectNext && faults.rejectNext.count > 0) {
    faults.rejectNext.count--;
    return faults.rejectNext.status;
  }
  if (faults.throttleRate !== undefined) {
    const now = clock.now();
    if (now - window.windowStart >= 1000) {
      window.windowStart = now;
      window.windowCount = 0;
    }
    if (++window.windowCount > faults.throttleRate) {
      counts.throttled++;
      return STATUS.ESME_RTHROTTLED;
    }
  }
  return undefined;
}
