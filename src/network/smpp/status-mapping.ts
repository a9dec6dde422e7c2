import { ERROR, STATUS, ref, errorObject } from '../../core/pipeline/statuses.js';
import type { StatusRef } from '../../core/store/types.js';
import { STATUS as SMPP } from './codec.js';

/** A receipt's meaning once mapped to Infobip's terms. */
export interface MappedState {
  status: StatusRef;
  errorId: number;
  final: boolean;
}

/**
 * SMPP outcomes in Infobip's terms. The tables are the README's "Status mapping"; change both together.
 */

interface StatRow {
  status: StatusRef;
  final: boolean;
  /** Error when the receipt's `err` names none. */
  error: number;
}

const STAT: Record<string, StatRow> = {
  DELIVRD: { status: ref(STATUS.DELIVERED_TO_HANDSET), final: true, error: ERROR.NO_ERROR.id },
  ACCEPTD: { status: ref(STATUS.PENDING_ACCEPTED), final: false, error: ERROR.NO_ERROR.id },
  ENROUTE: { status: ref(STATUS.PENDING_ENROUTE), final: false, error: ERROR.NO_ERROR.id },
  SCHEDULED: { status: ref(STATUS.PENDING_ENROUTE), final: false, error: ERROR.NO_ERROR.id },
  EXPIRED: { status: ref(STATUS.EXPIRED_EXPIRED), final: true, error: ERROR.EC_MESSAGE_EXPIRED.id },
  UNDELIV: { status: ref(STATUS.UNDELIVERABLE_NOT_DELIVERED), final: true, error: ERROR.EC_SM_DELIVERY_FAILURE.id },
  DELETED: { status: ref(STATUS.UNDELIVERABLE_NOT_DELIVERED), final: true, error: ERROR.EC_MESSAGE_CANCELED.id },
  REJECTD: { status: ref(STATUS.UNDELIVERABLE_REJECTED_OPERATOR), final: true, error: ERROR.EC_SMS_REJECTED_BY_MOBILE_OPERATOR.id },
  UNKNOWN: { status: ref(STATUS.EXPIRED_DLR_UNKNOWN), final: true, error: ERROR.EC_UNKNOWN_ERROR.id },
  SKIPPED: { status: ref(STATUS.UNDELIVERABLE_NOT_SENT), final: true, error: ERROR.EC_NOTSUBMITTEDTOSMPPCHANNEL.id },
};

const OTHER_STAT: StatRow = { status: ref(STATUS.UNDELIVERABLE_NOT_DELIVERED), final: true, error: ERROR.EC_UNKNOWN_ERROR.id };
const HANDSET_ERRORS = 1;

/**
 * A receipt's `stat` and `err` → status, error and finality. On a failure, a non-zero `err` that is
 * a GSM MAP error code Infobip lists among its handset errors becomes that error; any other
 * non-zero code is EC_UNKNOWN_ERROR (an expiry stays EC_MESSAGE_EXPIRED); zero or none keeps the
 * stat's own error. Success and pending states carry NO_ERROR whatever `err` says.
 */
export function mapReceiptState(stat: string, err: string | undefined): MappedState {
  const row = STAT[stat.trim().toUpperCase()] ?? OTHER_STAT;
  const mapped = { status: row.status, errorId: row.error, final: row.final };
  const code = err?.trim() ?? '';
  if (row.error === ERROR.NO_ERROR.id || code === '' || /^0+$/.test(code)) return mapped;
  if (/^\d+$/.test(code) && isHandsetError(Number(code))) mapped.errorId = Number(code);
  else if (row.error !== ERROR.EC_MESSAGE_EXPIRED.id) mapped.errorId = ERROR.EC_UNKNOWN_ERROR.id;
  return mapped;
}

/** Ids in the table are known errors; `errorObject` invents an operator error for any other id. */
const isHandsetError = (id: number): boolean => {
  const error = errorObject(id);
  return error.groupId === HANDSET_ERRORS && error.name !== `EC_${id}`;
};

export type SubmitVerdict =
  | { kind: 'ok' }
  /** Slow down and send again (the connection does this itself). */
  | { kind: 'throttled' }
  /** Temporary failure: the pipeline submits again later. */
  | { kind: 'retry' }
  | { kind: 'refused'; status: StatusRef; errorId: number };

const refused = (status: StatusRef, errorId: number): SubmitVerdict => ({ kind: 'refused', status, errorId });

const SUBMIT: ReadonlyMap<number, SubmitVerdict> = new Map<number, SubmitVerdict>([
  [SMPP.ESME_ROK, { kind: 'ok' }],
  [SMPP.ESME_RTHROTTLED, { kind: 'throttled' }],
  [SMPP.ESME_RMSGQFUL, { kind: 'throttled' }],
  [SMPP.ESME_RSYSERR, { kind: 'retry' }],
  [SMPP.ESME_RSUBMITFAIL, { kind: 'retry' }],
  [SMPP.ESME_RX_P_APPN, { kind: 'retry' }],
  [SMPP.ESME_RINVBNDSTS, { kind: 'retry' }],
  [SMPP.ESME_RUNKNOWNERR, { kind: 'retry' }],
  ...[SMPP.ESME_RINVDSTADR, SMPP.ESME_RINVDSTTON, SMPP.ESME_RINVDSTNPI].map(
    (code) => [code, refused(ref(STATUS.REJECTED_DESTINATION), ERROR.EC_INVALID_DESTINATION_ADDRESS.id)] as const,
  ),
  ...[SMPP.ESME_RINVSRCADR, SMPP.ESME_RINVSRCTON, SMPP.ESME_RINVSRCNPI].map(
    (code) => [code, refused(ref(STATUS.REJECTED_SOURCE), ERROR.EC_INVALID_SOURCE_ADDRESS.id)] as const,
  ),
  [SMPP.ESME_RINVMSGLEN, refused(ref(STATUS.REJECTED_MESSAGE_TOO_LONG), ERROR.EC_MSG_TEXT_TOO_LONG.id)],
  ...[SMPP.ESME_RINVESMCLASS, SMPP.ESME_RINVDCS, SMPP.ESME_RINVPARLEN, SMPP.ESME_RINVOPTPARSTREAM, SMPP.ESME_ROPTPARNOTALLWD, SMPP.ESME_RINVCMDLEN].map(
    (code) => [code, refused(ref(STATUS.REJECTED_SYSTEM_ERROR), ERROR.EC_INVALID_PDU_FORMAT.id)] as const,
  ),
]);

const OTHER_SUBMIT = refused(ref(STATUS.UNDELIVERABLE_REJECTED_OPERATOR), ERROR.EC_SMS_REJECTED_BY_MOBILE_OPERATOR.id);

/** A submit_sm_resp command_status → what to do with the message. */
export function mapSubmitStatus(commandStatus: number): SubmitVerdict {
  return SUBMIT.get(commandStatus) ?? OTHER_SUBMIT;
}
