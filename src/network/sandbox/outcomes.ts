import { normalizeNumber } from '../../core/phone-number.js';
import { ERROR, STATUS, type ErrorObject, type StatusObject } from '../../core/pipeline/statuses.js';
import type { MessageChannel } from '../../core/store/types.js';

/**
 * What the simulated network does with a message. The built-in table works on the destination's
 * last four digits, so every test scenario needs nothing but a phone number:
 *
 * | suffix | outcome       | receipt                                            |
 * |--------|---------------|----------------------------------------------------|
 * | 9001   | UNDELIVERABLE | UNDELIVERABLE_NOT_DELIVERED, EC_ABSENT_SUBSCRIBER_SM |
 * | 9002   | EXPIRED       | EXPIRED_EXPIRED, EC_MESSAGE_EXPIRED                 |
 * | 9003   | REJECTED      | REJECTED_NETWORK, EC_OPERATOR_NOT_FOUND             |
 * | 9004   | NO_REPORT     | none: the dispatcher ends it at validUntil with EXPIRED_DLR_UNKNOWN |
 * | 9021   | NOT_RCS_CAPABLE (RCS only; an SMS is delivered) | UNDELIVERABLE_REJECTED_OPERATOR, EC_UNKNOWN_USER (with an SMS failover the recorder stores PENDING_ENROUTE instead) |
 * | other  | DELIVERED     | DELIVERED_TO_HANDSET, NO_ERROR                     |
 *
 * Two more outcomes exist for rules only (they act at submit, before any receipt):
 * REFUSED — the network refuses the message for good (UNDELIVERABLE_REJECTED_OPERATOR,
 * EC_SMS_REJECTED_BY_MOBILE_OPERATOR by default); THROTTLED — the network asks to retry later, so
 * the dispatcher requeues the message with backoff until its validity ends.
 *
 * Only DELIVERED messages reach the virtual phone's inbox, at submit time (a test can read a code
 * at once; the receipt follows after the latency). With a latency above zero, every outcome that
 * ends in a receipt first reports PENDING_ENROUTE at submit time, so intermediate reports can be
 * exercised; at zero latency the final status comes with the submit (SubmitOutcome.settled) and the
 * pipeline stores both in one write.
 */
export const SANDBOX_OUTCOMES = ['DELIVERED', 'UNDELIVERABLE', 'EXPIRED', 'REJECTED', 'NO_REPORT', 'NOT_RCS_CAPABLE', 'REFUSED', 'THROTTLED'] as const;

export type SandboxOutcomeName = (typeof SANDBOX_OUTCOMES)[number];

export const isSandboxOutcome = (value: string): value is SandboxOutcomeName =>
  (SANDBOX_OUTCOMES as readonly string[]).includes(value);

/** How an outcome shows up: through a receipt, at submit, or not at all. */
export type OutcomeBehaviour = 'receipt' | 'refused' | 'throttled' | 'silent';

export const OUTCOME_BEHAVIOUR: Readonly<Record<SandboxOutcomeName, OutcomeBehaviour>> = {
  DELIVERED: 'receipt',
  UNDELIVERABLE: 'receipt',
  EXPIRED: 'receipt',
  REJECTED: 'receipt',
  NO_REPORT: 'silent',
  NOT_RCS_CAPABLE: 'receipt',
  REFUSED: 'refused',
  THROTTLED: 'throttled',
};

/** Default status and error of each outcome; a rule may override both. */
export const OUTCOME_DEFAULTS: Readonly<Record<SandboxOutcomeName, { status: StatusObject; error: ErrorObject }>> = {
  DELIVERED: { status: STATUS.DELIVERED_TO_HANDSET, error: ERROR.NO_ERROR },
  UNDELIVERABLE: { status: STATUS.UNDELIVERABLE_NOT_DELIVERED, error: ERROR.EC_ABSENT_SUBSCRIBER_SM },
  EXPIRED: { status: STATUS.EXPIRED_EXPIRED, error: ERROR.EC_MESSAGE_EXPIRED },
  REJECTED: { status: STATUS.REJECTED_NETWORK, error: ERROR.EC_OPERATOR_NOT_FOUND },
  NO_REPORT: { status: STATUS.EXPIRED_DLR_UNKNOWN, error: ERROR.EC_VALIDITY_EXPIRED },
  NOT_RCS_CAPABLE: { status: STATUS.UNDELIVERABLE_REJECTED_OPERATOR, error: ERROR.EC_UNKNOWN_USER },
  REFUSED: { status: STATUS.UNDELIVERABLE_REJECTED_OPERATOR, error: ERROR.EC_SMS_REJECTED_BY_MOBILE_OPERATOR },
  THROTTLED: { status: STATUS.PENDING_ACCEPTED, error: ERROR.EC_TIME_OUT },
};

export const BUILT_IN_SUFFIXES: Readonly<Record<string, SandboxOutcomeName>> = {
  '9001': 'UNDELIVERABLE',
  '9002': 'EXPIRED',
  '9003': 'REJECTED',
  '9004': 'NO_REPORT',
};

/** Phone numbers are compared as bare digits: a leading `+` is not part of the number. */

export function builtInOutcome(destination: string, channel: MessageChannel = 'SMS'): SandboxOutcomeName {
  const suffix = normalizeNumber(destination).slice(-4);
  if (channel === 'RCS' && suffix === NOT_RCS_CAPABLE_SUFFIX) return 'NOT_RCS_CAPABLE';
  return BUILT_IN_SUFFIXES[suffix] ?? 'DELIVERED';
}

/** A phone that cannot receive RCS (it still receives SMS). */
export const NOT_RCS_CAPABLE_SUFFIX = '9021';
