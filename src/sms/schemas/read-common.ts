import { STATUS_GROUPS } from '../../core/pipeline/statuses.js';

/**
 * JSON schemas shared by the SMS read endpoints. Response schemas also drive serialization, which
 * drops any key not listed, so each lists every field the renderers in sms/wire can emit.
 */
const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const dateTime = { type: 'string', format: 'date-time', example: '2025-03-04T10:15:30.000+0000' } as const;

export const priceSchema = {
  type: 'object',
  description: 'Always 0 EUR: a self-hosted platform charges nothing.',
  properties: { pricePerMessage: { type: 'number' }, currency: str },
} as const;

export const statusSchema = {
  type: 'object',
  properties: {
    groupId: int,
    groupName: { type: 'string', enum: [...STATUS_GROUPS] },
    id: int,
    name: str,
    description: str,
    action: str,
  },
} as const;

export const errorSchema = {
  type: 'object',
  properties: { groupId: int, groupName: str, id: int, name: str, description: str, permanent: { type: 'boolean' } },
} as const;

export const platformSchema = {
  type: 'object',
  properties: { entityId: str, applicationId: str },
} as const;

export const wire = { str, int, dateTime };

export const generalStatusParam = {
  type: 'string',
  enum: [...STATUS_GROUPS],
  description: 'Only messages whose status group is this one.',
} as const;

export const platformFilterParams = {
  entityId: { type: 'string', description: 'Only messages sent with this entity id.' },
  applicationId: { type: 'string', description: 'Only messages sent with this application id.' },
} as const;

export const LIMIT_DESCRIPTION = 'Maximum number of items to return: 1 to 1000, 50 when not set. Only the last 48 hours are reachable.';
