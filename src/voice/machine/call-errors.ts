import type { CallState } from '../../core/store/types.js';

export interface CallErrorCode {
  id: number;
  name: string;
  description: string;
}

const code = (id: number, name: string, description: string): CallErrorCode => ({ id, name, description });

/** Why a call ended: the Calls API's error-code table (CallLog.errorCode, CALL_FINISHED / CALL_FAILED). */
export const CALL_ERRORS = {
  NORMAL_HANGUP: code(10000, 'NORMAL_HANGUP', 'The call ended with a hangup by the caller, the callee or the API.'),
  ANSWERED_ELSEWHERE: code(10001, 'ANSWERED_ELSEWHERE', 'The call was answered on another device.'),
  MACHINE_DETECTED: code(10002, 'MACHINE_DETECTED', 'The call was answered by a machine and hung up.'),
  HUMAN_DETECTED: code(10003, 'HUMAN_DETECTED', 'The call was answered by a human and hung up.'),
  MAX_DURATION_REACHED: code(10004, 'MAX_DURATION_REACHED', 'The call reached its maximum duration.'),
  DEVICE_FORBIDDEN: code(10100, 'DEVICE_FORBIDDEN', 'The device refused the call.'),
  DEVICE_NOT_FOUND: code(10101, 'DEVICE_NOT_FOUND', 'The device could not be found.'),
  DEVICE_UNAVAILABLE: code(10102, 'DEVICE_UNAVAILABLE', 'The device is unavailable.'),
  MEDIA_ERROR: code(10103, 'MEDIA_ERROR', 'Media could not be established.'),
  NO_ANSWER: code(10200, 'NO_ANSWER', 'The callee did not answer in time.'),
  BUSY: code(10201, 'BUSY', 'The callee was busy.'),
  CANCELLED: code(10202, 'CANCELLED', 'The call was cancelled before it was answered.'),
  REJECTED: code(10203, 'REJECTED', 'The call was rejected.'),
  TEMPORARILY_UNAVAILABLE: code(10204, 'TEMPORARILY_UNAVAILABLE', 'The callee is temporarily unavailable.'),
  FORBIDDEN: code(10300, 'FORBIDDEN', 'The call is forbidden.'),
  INSUFFICIENT_FUNDS: code(10301, 'INSUFFICIENT_FUNDS', 'Insufficient funds.'),
  UNAUTHENTICATED: code(10302, 'UNAUTHENTICATED', 'Not authenticated.'),
  DESTINATION_NOT_FOUND: code(10303, 'DESTINATION_NOT_FOUND', 'The destination was not found.'),
  DESTINATION_UNAVAILABLE: code(10304, 'DESTINATION_UNAVAILABLE', 'The destination is unreachable.'),
  INVALID_DESTINATION: code(10305, 'INVALID_DESTINATION', 'The destination is not valid.'),
  INVALID_REQUEST: code(10306, 'INVALID_REQUEST', 'The request was not valid.'),
  REQUEST_TIMEOUT: code(10307, 'REQUEST_TIMEOUT', 'The request timed out.'),
  NETWORK_ERROR: code(10308, 'NETWORK_ERROR', 'A network error ended the call.'),
  SERVICE_UNAVAILABLE: code(10309, 'SERVICE_UNAVAILABLE', 'The service carrying the call became unavailable.'),
  UNKNOWN: code(10310, 'UNKNOWN', 'Unknown error.'),
  FEATURE_UNAVAILABLE: code(10311, 'FEATURE_UNAVAILABLE', 'The feature is not available.'),
  CONGESTION: code(10312, 'CONGESTION', 'The network is congested.'),
  UNAUTHORIZED: code(10313, 'UNAUTHORIZED', 'Not authorized.'),
  URL_NOT_FOUND: code(10400, 'URL_NOT_FOUND', 'The URL was not found.'),
  URL_UNREACHABLE: code(10401, 'URL_UNREACHABLE', 'The URL could not be reached.'),
  INVALID_RESPONSE: code(10402, 'INVALID_RESPONSE', 'The URL gave an invalid response.'),
} as const;

export type CallErrorName = keyof typeof CALL_ERRORS;

const BY_ID = new Map<number, CallErrorCode>(Object.values(CALL_ERRORS).map((c) => [c.id, c]));

export const callErrorById = (id: number): CallErrorCode | undefined => BY_ID.get(id);

/** The `errorCode` values `POST …/hangup` takes. */
export const HANGUP_ERROR_CODES = [
  'NORMAL_HANGUP',
  'MACHINE_DETECTED',
  'NO_ANSWER',
  'BUSY',
  'CANCELLED',
  'REJECTED',
  'FORBIDDEN',
  'DESTINATION_NOT_FOUND',
  'DESTINATION_UNAVAILABLE',
  'INVALID_DESTINATION',
  'INVALID_REQUEST',
  'REQUEST_TIMEOUT',
  'SERVICE_UNAVAILABLE',
] as const satisfies readonly CallErrorName[];

export type HangupErrorName = (typeof HANGUP_ERROR_CODES)[number];

/** The state a call ends in for the reason it ended. */
export function finalStateFor(reason: CallErrorName): CallState {
  switch (reason) {
    case 'NORMAL_HANGUP':
    case 'MACHINE_DETECTED':
    case 'HUMAN_DETECTED':
    case 'MAX_DURATION_REACHED':
    case 'ANSWERED_ELSEWHERE':
      return 'FINISHED';
    case 'NO_ANSWER':
      return 'NO_ANSWER';
    case 'BUSY':
      return 'BUSY';
    case 'CANCELLED':
      return 'CANCELLED';
    default:
      return 'FAILED';
  }
}
