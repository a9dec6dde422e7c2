import type { CallRecord } from '../../core/store/types.js';
import type { ScheduledNetworkEvent, Telephony, TelephonyCommand } from './telephony.js';

/**
 * Outcomes of a call to a virtual phone, by the last four digits of its number. Documented in the
 * README's voice sandbox table.
 */
const OUTCOMES: Record<string, 'busy' | 'no-answer' | 'unreachable' | 'machine'> = {
  '9011': 'busy',
  '9012': 'no-answer',
  '9013': 'unreachable',
  '9014': 'machine',
};

/** The number a call's far end is dialled at, for endpoints that have one. */
const numberOf = (call: CallRecord): string | undefined =>
  typeof call.endpoint.phoneNumber === 'string' ? call.endpoint.phoneNumber : undefined;

/**
 * The sandbox's telephone network: every virtual phone rings after a fifth of the sandbox latency
 * and answers after the whole of it (SWITCHBOARD_SANDBOX_LATENCY_MS), unless its number ends in one
 * of the outcome suffixes. SIP, WebRTC and other endpoints are virtual endpoints that answer like a
 * phone. The far end never hangs up or presses keys by itself: a person or a test does that through
 * the sandbox API.
 */
export class SandboxTelephony implements Telephony {
  readonly name = 'sandbox';

  constructor(private readonly latencyMs: number) {}

  plan(call: CallRecord, command: TelephonyCommand): ScheduledNetworkEvent[] {
    if (command.type !== 'dial') return [];
    const ring = Math.round(this.latencyMs / 5);
    const number = numberOf(call);
    switch (number === undefined ? undefined : OUTCOMES[number.slice(-4)]) {
      case 'busy':
        return [{ afterMs: ring, event: { type: 'busy' } }];
      case 'unreachable':
        return [{ afterMs: ring, event: { type: 'unreachable' } }];
      case 'no-answer':
        // It rings until the call's connectTimeout ends it.
        return [{ afterMs: ring, event: { type: 'ringing' } }];
      case 'machine':
        return [
          { afterMs: ring, event: { type: 'ringing' } },
          { afterMs: this.latencyMs, event: { type: 'answered', machine: true } },
        ];
      default:
        return [
          { afterMs: ring, event: { type: 'ringing' } },
          { afterMs: this.latencyMs, event: { type: 'answered' } },
        ];
    }
  }
}
