import type { CallRecord } from '../../core/store/types.js';

/** What the far end of a call did: the network's side of the call's life. */
export type NetworkEvent =
  | { type: 'ringing' }
  | { type: 'answered'; machine?: boolean }
  | { type: 'busy' }
  | { type: 'no-answer' }
  | { type: 'unreachable' }
  | { type: 'hangup' }
  | { type: 'dtmf'; digits: string };

/** What the platform asks of the network about a call. */
export type TelephonyCommand = { type: 'dial' } | { type: 'answer' } | { type: 'hangup' } | { type: 'send-dtmf'; digits: string };

/** A network event the network will report `afterMs` from now. */
export interface ScheduledNetworkEvent {
  afterMs: number;
  event: NetworkEvent;
}

/**
 * A telephone network calls travel on. The core tells it what the application does (`plan`, inside
 * the call's step, synchronous and without side effects) and hears from it what the far end does
 * (NetworkEvent, through the call service). A simulated network answers a command with the events
 * it will report later, which the core keeps as durable timers, so that a call carries on on any
 * node and across restarts; a real network (SIP) answers with none, acts when the step is stored
 * and reports events as they happen.
 */
export interface Telephony {
  readonly name: string;
  plan(call: CallRecord, command: TelephonyCommand): ScheduledNetworkEvent[];
}
