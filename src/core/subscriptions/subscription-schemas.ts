import { HMAC_ALGORITHMS } from '../outbox/webhook-auth.js';
import { SERVED_CHANNELS, SUBSCRIPTION_CHANNELS } from './subscription-channels.js';

/**
 * JSON schemas of the Subscriptions API subset, after Infobip's subscription request/response
 * shapes. They check types and sizes; rules that need a clear violation text (event names per
 * channel, security type, credentials, URL) are checked in subscription-input.ts.
 */

const text = (maxLength: number, minLength = 0) => ({ type: 'string', minLength, maxLength }) as const;

const criteriaSchema = {
  type: 'array',
  maxItems: 255,
  description:
    'Pairs to match: applicationId, entityId and, for call events, callsConfigurationId; a field given must equal the event\'s, a field omitted matches anything.',
  items: {
    type: 'object',
    properties: { applicationId: text(255), entityId: text(255), callsConfigurationId: text(255) },
  },
} as const;

const stringList = (description: string) =>
  ({ type: 'array', maxItems: 255, description, items: text(255) }) as const;

function channelEventsText(): string {
  return SERVED_CHANNELS.map((channel) => {
    const { events, pushed } = SUBSCRIPTION_CHANNELS[channel];
    if (events.length === pushed.length) return `${channel}: ${events.join(', ')}.`;
    return `${channel}: any of Infobip's ${channel} events; Switchboard pushes ${pushed.join(', ')}.`;
  }).join(' ');
}

const eventsSchema = {
  type: 'array',
  maxItems: 255,
  description: `Events to push, as names or {event, format} objects, among the channel's: ${channelEventsText()}`,
  items: { type: ['string', 'object'], properties: { event: { type: 'string' }, format: { type: 'string' } } },
} as const;

const securityRequestSchema = {
  type: 'object',
  properties: {
    authId: text(255, 1),
    type: { type: 'string', enum: ['BASIC', 'HMAC', 'OAUTH', 'CUSTOM'] },
    credentials: {
      type: 'object',
      description: 'BASIC: {username, password}; HMAC: {secretKey, algorithm}. Never returned by the API.',
      properties: {
        username: text(255, 1),
        password: text(255, 1),
        secretKey: text(255, 1),
        algorithm: { type: 'string', enum: HMAC_ALGORITHMS },
      },
    },
  },
} as const;

const profileRequestSchema = {
  type: 'object',
  description: 'A new profile defined inline (with `webhook`), or the `profileId` of a profile of another subscription.',
  properties: {
    profileId: text(255, 1),
    webhook: {
      type: 'object',
      required: ['notifyUrl'],
      properties: { notifyUrl: text(512), contentType: text(255) },
    },
    security: securityRequestSchema,
    clientCertificateId: text(255),
    maxBucketSize: { type: 'integer', minimum: 1, maximum: 2000 },
    windowSize: { type: 'integer', minimum: 20, maximum: 10000 },
    connectTimeout: { type: 'integer', minimum: 300, maximum: 30000 },
    readTimeout: { type: 'integer', minimum: 1000, maximum: 90000 },
    enabledSSLProtocols: { type: 'array', items: { type: 'string', enum: ['TLSv1.2', 'TLSv1.3'] } },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    responseRegex: { type: 'string' },
    responseBodyRegex: { type: 'string' },
    rateLimit: { type: 'integer', minimum: 1, maximum: 5000 },
  },
} as const;

const subscriptionFields = {
  name: text(255, 1),
  events: eventsSchema,
  criteria: criteriaSchema,
  resources: stringList('Our numbers or sender names to match (inbound `to`, outbound sender).'),
  users: stringList('Accepted for compatibility; not stored (no account users here).'),
  profile: profileRequestSchema,
} as const;

export const createBodySchema = {
  type: 'object',
  required: ['subscriptionId', 'events', 'profile'],
  properties: { subscriptionId: text(255, 1), ...subscriptionFields },
} as const;

export const updateBodySchema = {
  type: 'object',
  required: ['events'],
  properties: subscriptionFields,
} as const;

export const channelParamsSchema = {
  type: 'object',
  required: ['channel'],
  properties: { channel: { type: 'string', enum: SERVED_CHANNELS } },
} as const;

export const subscriptionParamsSchema = {
  type: 'object',
  required: ['channel', 'subscriptionId'],
  properties: { channel: { type: 'string', enum: SERVED_CHANNELS }, subscriptionId: text(255, 1) },
} as const;

const filterList = (maxLength: number) => ({ type: 'array', items: text(maxLength, 1) }) as const;

export const listQuerySchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 0, default: 0 },
    size: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    applicationId: filterList(255),
    entityId: filterList(255),
    callsConfigurationId: filterList(128),
    resource: filterList(255),
    user: filterList(255),
  },
} as const;

const idOnlyProfileResponse = {
  type: 'object',
  properties: {
    profileId: { type: 'string' },
    webhook: { type: 'object', properties: { notifyUrl: { type: 'string' }, contentType: { type: 'string' } } },
    security: { type: 'object', properties: { authId: { type: 'string' } } },
  },
} as const;

export const idOnlyResponseSchema = {
  type: 'object',
  properties: { subscriptionId: { type: 'string' }, profile: idOnlyProfileResponse },
} as const;

export const subscriptionResponseSchema = {
  type: 'object',
  properties: {
    subscriptionId: { type: 'string' },
    name: { type: 'string' },
    profile: idOnlyProfileResponse,
    events: { type: 'array', items: { type: 'string' } },
    criteria: {
      type: 'array',
      items: {
        type: 'object',
        properties: { applicationId: { type: 'string' }, entityId: { type: 'string' }, callsConfigurationId: { type: 'string' } },
      },
    },
    resources: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const pageResponseSchema = {
  type: 'object',
  properties: {
    results: { type: 'array', items: subscriptionResponseSchema },
    paging: {
      type: 'object',
      properties: {
        page: { type: 'integer' },
        size: { type: 'integer' },
        totalPages: { type: 'integer' },
        totalResults: { type: 'integer' },
      },
    },
  },
} as const;
