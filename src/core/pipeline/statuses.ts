import type { StatusRef } from '../store/types.js';
import { RCS_ERROR } from './rcs-errors.js';

/** Status groups (reference §7.1): the v3 `MessageGeneralStatus` enum, by group id. */
export const STATUS_GROUPS = ['ACCEPTED', 'PENDING', 'UNDELIVERABLE', 'DELIVERED', 'EXPIRED', 'REJECTED'] as const;
export type StatusGroupName = (typeof STATUS_GROUPS)[number];

export interface StatusObject {
  groupId: number;
  groupName: StatusGroupName;
  id: number;
  name: string;
  description: string;
}

export interface ErrorObject {
  groupId: number;
  groupName: string;
  id: number;
  name: string;
  description: string;
  permanent: boolean;
}

const status = (groupId: number, id: number, name: string, description: string) =>
  ({ groupId, groupName: STATUS_GROUPS[groupId]!, id, name, description }) satisfies StatusObject;

/** The statuses this product emits for SMS; keyed by (groupId, id) since ids repeat across groups. */
export const STATUS = {
  PENDING_ACCEPTED: status(1, 26, 'PENDING_ACCEPTED', 'Message sent to next instance'),
  PENDING_ENROUTE: status(1, 7, 'PENDING_ENROUTE', 'Message sent to next instance'),
  PENDING_WAITING_DELIVERY: status(1, 3, 'PENDING_WAITING_DELIVERY', 'Message sent, waiting for delivery report'),
  UNDELIVERABLE_REJECTED_OPERATOR: status(2, 4, 'UNDELIVERABLE_REJECTED_OPERATOR', 'Message rejected by operator'),
  UNDELIVERABLE_NOT_DELIVERED: status(2, 9, 'UNDELIVERABLE_NOT_DELIVERED', 'Message sent not delivered'),
  UNDELIVERABLE_NOT_SENT: status(2, 31, 'UNDELIVERABLE_NOT_SENT', 'Message not sent'),
  DELIVERED_TO_OPERATOR: status(3, 2, 'DELIVERED_TO_OPERATOR', 'Message delivered to operator'),
  DELIVERED_TO_HANDSET: status(3, 5, 'DELIVERED_TO_HANDSET', 'Message delivered to handset'),
  EXPIRED_EXPIRED: status(4, 15, 'EXPIRED_EXPIRED', 'Message expired'),
  EXPIRED_DLR_UNKNOWN: status(4, 29, 'EXPIRED_DLR_UNKNOWN', 'Message expired, delivery report unknown'),
  REJECTED_NETWORK: status(5, 6, 'REJECTED_NETWORK', 'Network is forbidden'),
  REJECTED_PREFIX_MISSING: status(5, 8, 'REJECTED_PREFIX_MISSING', 'Number prefix missing'),
  REJECTED_SOURCE: status(5, 11, 'REJECTED_SOURCE', 'Invalid source address'),
  REJECTED_ROUTE_NOT_AVAILABLE: status(5, 19, 'REJECTED_ROUTE_NOT_AVAILABLE', 'No route available'),
  REJECTED_SYSTEM_ERROR: status(5, 21, 'REJECTED_SYSTEM_ERROR', 'System error'),
  REJECTED_DUPLICATE_MESSAGE_ID: status(5, 23, 'REJECTED_DUPLICATE_MESSAGE_ID', 'Duplicate message id'),
  REJECTED_INVALID_UDH: status(5, 24, 'REJECTED_INVALID_UDH', 'Invalid UDH'),
  REJECTED_MESSAGE_TOO_LONG: status(5, 25, 'REJECTED_MESSAGE_TOO_LONG', 'Message too long'),
  MISSING_TO: status(5, 51, 'MISSING_TO', 'Missing destination'),
  REJECTED_DESTINATION: status(5, 52, 'REJECTED_DESTINATION', 'Invalid destination address'),
} as const;

export type StatusName = keyof typeof STATUS;

const statusByKey = new Map<string, StatusObject>(
  Object.values(STATUS).map((s) => [`${s.groupId}:${s.id}`, s]),
);

export function statusObject(ref: StatusRef): StatusObject {
  const found = statusByKey.get(`${ref.groupId}:${ref.id}`);
  if (found) return found;
  // Unknown pairs can come from a carrier mapping added later; keep the enum-typed group valid.
  return { groupId: ref.groupId, groupName: STATUS_GROUPS[ref.groupId] ?? 'PENDING', id: ref.id, name: `STATUS_${ref.id}`, description: '' };
}

export const ref = (s: StatusObject): StatusRef => ({ groupId: s.groupId, id: s.id });

export const isFinalGroup = (groupId: number): boolean => groupId >= 2;

const ERROR_GROUPS = ['OK', 'HANDSET_ERRORS', 'USER_ERRORS', 'OPERATOR_ERRORS'] as const;

const error = (groupId: number, id: number, name: string, description: string, permanent: boolean): ErrorObject => ({
  groupId,
  groupName: ERROR_GROUPS[groupId]!,
  id,
  name,
  description,
  permanent,
});

/** Message error codes of SMS (reference Appendix A.1). */
const SMS_ERROR = {
  NO_ERROR: error(0, 0, 'NO_ERROR', 'No Error', false),
  EC_UNKNOWN_SUBSCRIBER: error(1, 1, 'EC_UNKNOWN_SUBSCRIBER', 'Unknown subscriber', true),
  EC_ABSENT_SUBSCRIBER_SM: error(1, 6, 'EC_ABSENT_SUBSCRIBER_SM', 'Absent subscriber', false),
  EC_ABSENT_SUBSCRIBER: error(1, 27, 'EC_ABSENT_SUBSCRIBER', 'Absent subscriber', false),
  EC_SYSTEM_FAILURE: error(1, 34, 'EC_SYSTEM_FAILURE', 'System failure', false),
  EC_UNKNOWN_BASE_STATION: error(1, 2, 'EC_UNKNOWN_BASE_STATION', 'Unknown base station', false),
  EC_UNIDENTIFIED_SUBSCRIBER: error(1, 5, 'EC_UNIDENTIFIED_SUBSCRIBER', 'Unidentified subscriber', false),
  EC_UNKNOWN_EQUIPMENT: error(1, 7, 'EC_UNKNOWN_EQUIPMENT', 'Unknown equipment', false),
  EC_ROAMING_NOT_ALLOWED: error(1, 8, 'EC_ROAMING_NOT_ALLOWED', 'Roaming not allowed', false),
  EC_ILLEGAL_SUBSCRIBER: error(1, 9, 'EC_ILLEGAL_SUBSCRIBER', 'Illegal subscriber', true),
  EC_TELESERVICE_NOT_PROVISIONED: error(1, 11, 'EC_TELESERVICE_NOT_PROVISIONED', 'Teleservice not provisioned', true),
  EC_ILLEGAL_EQUIPMENT: error(1, 12, 'EC_ILLEGAL_EQUIPMENT', 'Illegal equipment', true),
  EC_CALL_BARRED: error(1, 13, 'EC_CALL_BARRED', 'Call barred', false),
  EC_FACILITY_NOT_SUPPORTED: error(1, 21, 'EC_FACILITY_NOT_SUPPORTED', 'Facility not supported', false),
  EC_SUBSCRIBER_BUSY_FOR_MT_SMS: error(1, 31, 'EC_SUBSCRIBER_BUSY_FOR_MT_SMS', 'Subscriber busy for MT SMS', false),
  EC_SM_DELIVERY_FAILURE: error(1, 32, 'EC_SM_DELIVERY_FAILURE', 'SM delivery failure', false),
  EC_MESSAGE_WAITING_LIST_FULL: error(1, 33, 'EC_MESSAGE_WAITING_LIST_FULL', 'Message waiting list full', false),
  EC_DATA_MISSING: error(1, 35, 'EC_DATA_MISSING', 'Data missing', false),
  EC_UNEXPECTED_DATA_VALUE: error(1, 36, 'EC_UNEXPECTED_DATA_VALUE', 'Unexpected data value', false),
  EC_UNKNOWN_ERROR: error(1, 255, 'EC_UNKNOWN_ERROR', 'Unknown error', false),
  EC_SM_DF_MEMORYCAPACITYEXCEEDED: error(1, 256, 'EC_SM_DF_MEMORYCAPACITYEXCEEDED', 'SM delivery failure: handset memory full', false),
  EC_SM_DF_EQUIPMENTPROTOCOLERROR: error(1, 257, 'EC_SM_DF_EQUIPMENTPROTOCOLERROR', 'SM delivery failure: handset protocol error', false),
  EC_SM_DF_EQUIPMENTNOTSM_EQUIPPED: error(1, 258, 'EC_SM_DF_EQUIPMENTNOTSM_EQUIPPED', 'SM delivery failure: handset cannot receive SMS', false),
  EC_SM_DF_UNKNOWNSERVICECENTRE: error(1, 259, 'EC_SM_DF_UNKNOWNSERVICECENTRE', 'SM delivery failure: unknown service centre', false),
  EC_SM_DF_SC_CONGESTION: error(1, 260, 'EC_SM_DF_SC_CONGESTION', 'SM delivery failure: service centre congestion', false),
  EC_SM_DF_INVALIDSME_ADDRESS: error(1, 261, 'EC_SM_DF_INVALIDSME_ADDRESS', 'SM delivery failure: invalid SME address', false),
  EC_SM_DF_SUBSCRIBERNOTSC_SUBSCRIBER: error(1, 262, 'EC_SM_DF_SUBSCRIBERNOTSC_SUBSCRIBER', 'SM delivery failure: subscriber not served by this service centre', false),
  EC_PROVIDER_GENERAL_ERROR: error(1, 500, 'EC_PROVIDER_GENERAL_ERROR', 'Provider general error', false),
  EC_NO_RESPONSE: error(1, 502, 'EC_NO_RESPONSE', 'No response', false),
  EC_SERVICE_COMPLETION_FAILURE: error(1, 503, 'EC_SERVICE_COMPLETION_FAILURE', 'Service completion failure', false),
  EC_UNEXPECTED_RESPONSE_FROM_PEER: error(1, 504, 'EC_UNEXPECTED_RESPONSE_FROM_PEER', 'Unexpected response from peer', false),
  EC_MISTYPED_PARAMETER: error(1, 507, 'EC_MISTYPED_PARAMETER', 'Mistyped parameter', false),
  EC_NOT_SUPPORTED_SERVICE: error(1, 508, 'EC_NOT_SUPPORTED_SERVICE', 'Service not supported', false),
  EC_DUPLICATED_INVOKE_ID: error(1, 509, 'EC_DUPLICATED_INVOKE_ID', 'Duplicated invoke id', false),
  EC_CANNOT_RECEIVE_SC: error(1, 565, 'EC_CANNOT_RECEIVE_SC', 'Subscriber cannot receive from this short code', true),
  EC_SC_BLOCKED_BY_END_USER: error(1, 573, 'EC_SC_BLOCKED_BY_END_USER', 'Short code blocked by the subscriber', true),
  EC_USER_OUT_OF_CREDIT: error(1, 581, 'EC_USER_OUT_OF_CREDIT', 'Subscriber out of credit', false),
  EC_TEMPORARY_HANDSET_FAILURE: error(1, 628, 'EC_TEMPORARY_HANDSET_FAILURE', 'Temporary handset failure', true),
  EC_DEST_ADDRESS_UNABLE_TO_RECEIVE_SMS: error(1, 629, 'EC_DEST_ADDRESS_UNABLE_TO_RECEIVE_SMS', 'Destination unable to receive SMS', true),
  EC_OR_APPCONTEXTNOTSUPPORTED: error(1, 1024, 'EC_OR_APPCONTEXTNOTSUPPORTED', 'Application context not supported', false),
  EC_OR_INVALIDDESTINATIONREFERENCE: error(1, 1025, 'EC_OR_INVALIDDESTINATIONREFERENCE', 'Invalid destination reference', false),
  EC_OR_INVALIDORIGINATINGREFERENCE: error(1, 1026, 'EC_OR_INVALIDORIGINATINGREFERENCE', 'Invalid originating reference', false),
  EC_OR_ENCAPSULATEDAC_NOTSUPPORTED: error(1, 1027, 'EC_OR_ENCAPSULATEDAC_NOTSUPPORTED', 'Encapsulated application context not supported', false),
  EC_OR_TRANSPORTPROTECTIONNOTADEQUATE: error(1, 1028, 'EC_OR_TRANSPORTPROTECTIONNOTADEQUATE', 'Transport protection not adequate', false),
  EC_OR_NOREASONGIVEN: error(1, 1029, 'EC_OR_NOREASONGIVEN', 'Dialogue refused, no reason given', false),
  EC_OR_POTENTIALVERSIONINCOMPATIBILITY: error(1, 1030, 'EC_OR_POTENTIALVERSIONINCOMPATIBILITY', 'Potential version incompatibility', false),
  EC_OR_REMOTENODENOTREACHABLE: error(1, 1031, 'EC_OR_REMOTENODENOTREACHABLE', 'Remote node not reachable', false),
  EC_NNR_NOTRANSLATIONFORANADDRESSOFSUCHNATURE: error(1, 1152, 'EC_NNR_NOTRANSLATIONFORANADDRESSOFSUCHNATURE', 'No translation for an address of such nature', false),
  EC_NNR_NOTRANSLATIONFORTHISSPECIFICADDRESS: error(1, 1153, 'EC_NNR_NOTRANSLATIONFORTHISSPECIFICADDRESS', 'No translation for this specific address', false),
  EC_NNR_SUBSYSTEMCONGESTION: error(1, 1154, 'EC_NNR_SUBSYSTEMCONGESTION', 'Subsystem congestion', false),
  EC_NNR_SUBSYSTEMFAILURE: error(1, 1155, 'EC_NNR_SUBSYSTEMFAILURE', 'Subsystem failure', false),
  EC_NNR_UNEQUIPPEDUSER: error(1, 1156, 'EC_NNR_UNEQUIPPEDUSER', 'Unequipped user', false),
  EC_NNR_MTPFAILURE: error(1, 1157, 'EC_NNR_MTPFAILURE', 'MTP failure', false),
  EC_NNR_NETWORKCONGESTION: error(1, 1158, 'EC_NNR_NETWORKCONGESTION', 'Network congestion', false),
  EC_NNR_UNQUALIFIED: error(1, 1159, 'EC_NNR_UNQUALIFIED', 'Unqualified network error', false),
  EC_NNR_ERRORINMESSAGETRANSPORTXUDT: error(1, 1160, 'EC_NNR_ERRORINMESSAGETRANSPORTXUDT', 'Error in message transport (XUDT)', false),
  EC_NNR_ERRORINLOCALPROCESSINGXUDT: error(1, 1161, 'EC_NNR_ERRORINLOCALPROCESSINGXUDT', 'Error in local processing (XUDT)', false),
  EC_NNR_DESTINATIONCANNOTPERFORMREASSEMBLYXUDT: error(1, 1162, 'EC_NNR_DESTINATIONCANNOTPERFORMREASSEMBLYXUDT', 'Destination cannot perform reassembly (XUDT)', false),
  EC_NNR_SCCPFAILURE: error(1, 1163, 'EC_NNR_SCCPFAILURE', 'SCCP failure', false),
  EC_NNR_HOPCOUNTERVIOLATION: error(1, 1164, 'EC_NNR_HOPCOUNTERVIOLATION', 'Hop counter violation', false),
  EC_NNR_SEGMENTATIONNOTSUPPORTED: error(1, 1165, 'EC_NNR_SEGMENTATIONNOTSUPPORTED', 'Segmentation not supported', false),
  EC_NNR_SEGMENTATIONFAILURE: error(1, 1166, 'EC_NNR_SEGMENTATIONFAILURE', 'Segmentation failure', false),
  EC_UA_USERSPECIFICREASON: error(1, 1281, 'EC_UA_USERSPECIFICREASON', 'Dialogue aborted by user: specific reason', false),
  EC_UA_USERRESOURCELIMITATION: error(1, 1282, 'EC_UA_USERRESOURCELIMITATION', 'Dialogue aborted by user: resource limitation', false),
  EC_UA_RESOURCEUNAVAILABLE: error(1, 1283, 'EC_UA_RESOURCEUNAVAILABLE', 'Dialogue aborted by user: resource unavailable', false),
  EC_UA_APPLICATIONPROCEDURECANCELLATION: error(1, 1284, 'EC_UA_APPLICATIONPROCEDURECANCELLATION', 'Dialogue aborted by user: procedure cancelled', false),
  EC_PA_PROVIDERMALFUNCTION: error(1, 1536, 'EC_PA_PROVIDERMALFUNCTION', 'Provider abort: malfunction', false),
  EC_PA_SUPPORTINGDIALOGORTRANSACTIONREALEASED: error(1, 1537, 'EC_PA_SUPPORTINGDIALOGORTRANSACTIONREALEASED', 'Provider abort: dialogue or transaction released', false),
  EC_PA_RESSOURCELIMITATION: error(1, 1538, 'EC_PA_RESSOURCELIMITATION', 'Provider abort: resource limitation', false),
  EC_PA_MAINTENANCEACTIVITY: error(1, 1539, 'EC_PA_MAINTENANCEACTIVITY', 'Provider abort: maintenance activity', false),
  EC_PA_VERSIONINCOMPATIBILITY: error(1, 1540, 'EC_PA_VERSIONINCOMPATIBILITY', 'Provider abort: version incompatibility', false),
  EC_PA_ABNORMALMAPDIALOG: error(1, 1541, 'EC_PA_ABNORMALMAPDIALOG', 'Provider abort: abnormal MAP dialogue', false),
  EC_NC_ABNORMALEVENTDETECTEDBYPEER: error(1, 1792, 'EC_NC_ABNORMALEVENTDETECTEDBYPEER', 'Abnormal event detected by peer', false),
  EC_NC_RESPONSEREJECTEDBYPEER: error(1, 1793, 'EC_NC_RESPONSEREJECTEDBYPEER', 'Response rejected by peer', false),
  EC_NC_ABNORMALEVENTRECEIVEDFROMPEER: error(1, 1794, 'EC_NC_ABNORMALEVENTRECEIVEDFROMPEER', 'Abnormal event received from peer', false),
  EC_NC_MESSAGECANNOTBEDELIVEREDTOPEER: error(1, 1795, 'EC_NC_MESSAGECANNOTBEDELIVEREDTOPEER', 'Message cannot be delivered to peer', false),
  EC_NC_PROVIDEROUTOFINVOKE: error(1, 1796, 'EC_NC_PROVIDEROUTOFINVOKE', 'Provider out of invoke', false),
  EC_INVALID_DESTINATION_ADDRESS: error(2, 351, 'EC_INVALID_DESTINATION_ADDRESS', 'Invalid destination address', false),
  EC_MSG_TEXT_TOO_LONG: error(2, 355, 'EC_MSG_TEXT_TOO_LONG', 'Message text too long', true),
  EC_INVALID_SOURCE_ADDRESS: error(2, 368, 'EC_INVALID_SOURCE_ADDRESS', 'Invalid source address', true),
  EC_MESSAGE_CANCELED: error(2, 4100, 'EC_MESSAGE_CANCELED', 'Message canceled', true),
  EC_NOTSUBMITTEDTOSMPPCHANNEL: error(2, 4102, 'EC_NOTSUBMITTEDTOSMPPCHANNEL', 'Not submitted to SMPP channel', true),
  EC_VALIDITY_EXPIRED: error(2, 4101, 'EC_VALIDITY_EXPIRED', 'Validity period expired', true),
  EC_INVALID_PDU_FORMAT: error(2, 4096, 'EC_INVALID_PDU_FORMAT', 'Invalid PDU format', true),
  EC_OPERATOR_NOT_FOUND: error(3, 345, 'EC_OPERATOR_NOT_FOUND', 'Operator not found', true),
  EC_SMS_REJECTED_BY_MOBILE_OPERATOR: error(3, 632, 'EC_SMS_REJECTED_BY_MOBILE_OPERATOR', 'SMS rejected by mobile operator', true),
  EC_MESSAGE_EXPIRED: error(3, 811, 'EC_MESSAGE_EXPIRED', 'Message expired', true),
  EC_TIME_OUT: error(3, 2048, 'EC_TIME_OUT', 'Time out', false),
  EC_DUPLICATE_MESSAGE: error(3, 5492, 'EC_DUPLICATE_MESSAGE', 'Duplicate message', true),
} as const;

/** Message error codes this product emits, SMS and RCS, by name. */
export const ERROR = { ...SMS_ERROR, ...RCS_ERROR } as const;

export type ErrorName = keyof typeof ERROR;

const errorById = new Map<number, ErrorObject>(Object.values(ERROR).map((e) => [e.id, e]));

export function errorObject(id: number): ErrorObject {
  return errorById.get(id) ?? { groupId: 3, groupName: 'OPERATOR_ERRORS', id, name: `EC_${id}`, description: '', permanent: false };
}
