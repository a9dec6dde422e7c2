import type { ErrorObject } from './statuses.js';

/**
 * The RCS (chat) error codes of Infobip's delivery reports (reference Appendix A.3): client errors
 * in group 1 (HANDSET_ERRORS), provider errors in 2 (USER_ERRORS), system errors in 3
 * (OPERATOR_ERRORS; the last two group names are UNCONFIRMED, by analogy with group 1).
 */
const GROUP_NAMES = ['OK', 'HANDSET_ERRORS', 'USER_ERRORS', 'OPERATOR_ERRORS'] as const;

const rcsError = (groupId: 1 | 2 | 3, id: number, name: string, description: string, permanent: boolean): ErrorObject => ({
  groupId,
  groupName: GROUP_NAMES[groupId],
  id,
  name,
  description,
  permanent,
});

export const RCS_ERROR = {
  EC_UNKNOWN_APPLICATION: rcsError(1, 7001, 'EC_UNKNOWN_APPLICATION', 'Unknown application', true),
  EC_UNKNOWN_USER: rcsError(1, 7002, 'EC_UNKNOWN_USER', 'Unknown user', true),
  EC_BLOCKED_USER: rcsError(1, 7003, 'EC_BLOCKED_USER', 'Blocked user', true),
  EC_UNAUTHORIZED_ACCESS: rcsError(1, 7004, 'EC_UNAUTHORIZED_ACCESS', 'Unauthorized access', true),
  EC_FORBIDDEN_ACCESS: rcsError(1, 7005, 'EC_FORBIDDEN_ACCESS', 'Forbidden access', true),
  EC_BAD_REQUEST: rcsError(1, 7006, 'EC_BAD_REQUEST', 'Bad request', true),
  EC_ILLEGAL_TRAFFIC_TYPE: rcsError(1, 7007, 'EC_ILLEGAL_TRAFFIC_TYPE', 'Illegal traffic type', true),
  EC_INVALID_TEMPLATE_ARGS: rcsError(1, 7008, 'EC_INVALID_TEMPLATE_ARGS', 'Invalid template args', true),
  EC_INVALID_TEMPLATE: rcsError(1, 7009, 'EC_INVALID_TEMPLATE', 'Invalid template', true),
  EC_NO_SESSION: rcsError(1, 7010, 'EC_NO_SESSION', 'No session', true),
  EC_ACCOUNT_ISSUE: rcsError(1, 7011, 'EC_ACCOUNT_ISSUE', 'Account issue', true),
  EC_DEPLOYMENT_CONFIGURATION_ERROR: rcsError(1, 7012, 'EC_DEPLOYMENT_CONFIGURATION_ERROR', 'Deployment configuration error', false),
  EC_MEDIA_HOSTING_ERROR: rcsError(1, 7013, 'EC_MEDIA_HOSTING_ERROR', 'Media hosting error', false),
  EC_MEDIA_UPLOAD_ERROR: rcsError(1, 7014, 'EC_MEDIA_UPLOAD_ERROR', 'Media upload error', false),
  EC_MEDIA_METADATA_ERROR: rcsError(1, 7015, 'EC_MEDIA_METADATA_ERROR', 'Media metadata error', true),
  EC_SPAM_RATE: rcsError(1, 7016, 'EC_SPAM_RATE', 'Spam rate', true),
  EC_TOO_MANY_REQUESTS: rcsError(1, 7017, 'EC_TOO_MANY_REQUESTS', 'Too many requests', false),
  EC_INTERNAL_BAD_MAPPING: rcsError(1, 7018, 'EC_INTERNAL_BAD_MAPPING', 'Internal bad mapping', true),
  EC_PROVIDER_BILLING_ERROR: rcsError(1, 7019, 'EC_PROVIDER_BILLING_ERROR', 'Provider billing error', true),
  EC_DEVICE_REPRODUCTION_ERROR: rcsError(1, 7020, 'EC_DEVICE_REPRODUCTION_ERROR', 'Device reproduction error', true),
  EC_LIMITED_FUNCTIONALITY: rcsError(1, 7021, 'EC_LIMITED_FUNCTIONALITY', 'Limited functionality', true),
  EC_MEDIA_UNSUPPORTED: rcsError(1, 7022, 'EC_MEDIA_UNSUPPORTED', 'Media unsupported', true),
  EC_DATA_MISMATCH: rcsError(1, 7023, 'EC_DATA_MISMATCH', 'Data mismatch', true),
  EC_NOT_ALLOWED_SENDING_TIME: rcsError(1, 7024, 'EC_NOT_ALLOWED_SENDING_TIME', 'Not allowed sending time', false),
  EC_UNSUPPORTED_MOBILE_APP_VERSION: rcsError(1, 7025, 'EC_UNSUPPORTED_MOBILE_APP_VERSION', 'Unsupported mobile app version', true),
  EC_MESSAGE_TYPE_EXHAUSTED: rcsError(1, 7026, 'EC_MESSAGE_TYPE_EXHAUSTED', 'Message type exhausted', true),
  EC_BLOCKED_CONTENT: rcsError(1, 7027, 'EC_BLOCKED_CONTENT', 'Blocked content', true),
  EC_USER_IDENTITY_CHANGED: rcsError(1, 7029, 'EC_USER_IDENTITY_CHANGED', 'User identity changed', true),
  EC_TEMPLATE_BLOCKED_BY_USER: rcsError(1, 7030, 'EC_TEMPLATE_BLOCKED_BY_USER', 'Template blocked by user', true),
  EC_INVALID_WA_FLOW: rcsError(1, 7031, 'EC_INVALID_WA_FLOW', 'Invalid WhatsApp flow', true),
  EC_FREQUENCY_CAPPING: rcsError(1, 7032, 'EC_FREQUENCY_CAPPING', 'Frequency capping', true),
  EC_MARKETING_OPT_OUT: rcsError(1, 7033, 'EC_MARKETING_OPT_OUT', 'Marketing opt out', true),
  EC_SENDER_NOT_REGISTERED: rcsError(1, 7034, 'EC_SENDER_NOT_REGISTERED', 'Sender not registered', true),
  EC_CALL_PERMISSION_REQUEST_FAILED: rcsError(1, 7035, 'EC_CALL_PERMISSION_REQUEST_FAILED', 'Call permission request failed', false),
  EC_PHONE_MATCHING_DISABLED: rcsError(1, 7102, 'EC_PHONE_MATCHING_DISABLED', 'Phone matching disabled', true),
  EC_UNSUPPORTED_DEVICE: rcsError(1, 7201, 'EC_UNSUPPORTED_DEVICE', 'Unsupported device', true),
  EC_TEMPLATE_NOT_SYNCED: rcsError(2, 7036, 'EC_TEMPLATE_NOT_SYNCED', 'Template not synced', false),
  EC_TEMPLATE_NOT_AVAILABLE: rcsError(2, 7037, 'EC_TEMPLATE_NOT_AVAILABLE', 'Template not available', false),
  EC_INVALID_WA_ACCOUNT_TYPE: rcsError(2, 7038, 'EC_INVALID_WA_ACCOUNT_TYPE', 'Invalid WhatsApp account type', true),
  EC_PROVIDER_INTERNAL_ERROR: rcsError(2, 7050, 'EC_PROVIDER_INTERNAL_ERROR', 'Provider internal error', false),
  EC_PROVIDER_TIMEOUT: rcsError(2, 7051, 'EC_PROVIDER_TIMEOUT', 'Provider timeout', false),
  EC_PROVIDER_DR_ERROR: rcsError(2, 7052, 'EC_PROVIDER_DR_ERROR', 'Provider delivery report error', true),
  EC_INTERNAL_ERROR: rcsError(3, 7080, 'EC_INTERNAL_ERROR', 'Internal error', true),
  EC_CONFIGURATION_ERROR: rcsError(3, 7081, 'EC_CONFIGURATION_ERROR', 'Configuration error', true),
  EC_TEMPORARY_GATEWAY_ERROR: rcsError(3, 7082, 'EC_TEMPORARY_GATEWAY_ERROR', 'Temporary gateway error', true),
  EC_SERVICE_NOT_ACTIVATED: rcsError(3, 7083, 'EC_SERVICE_NOT_ACTIVATED', 'Service not activated', true),
  EC_MISSING_SENDER_METADATA: rcsError(3, 7084, 'EC_MISSING_SENDER_METADATA', 'Missing sender metadata', true),
  EC_DUPLICATE_REQUEST: rcsError(3, 7280, 'EC_DUPLICATE_REQUEST', 'Duplicate request', true),
  EC_BAD_ORIGIN: rcsError(3, 7281, 'EC_BAD_ORIGIN', 'Bad origin', true),
} as const;
