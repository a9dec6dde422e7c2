import type { FastifyInstance, RouteOptions } from 'fastify';
import { errorFamilyForUrl } from './family.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route enforces a rate limit: its OpenAPI entry documents the 429 and its Retry-After. */
    rateLimited?: boolean;
  }
}

/** The two error bodies as JSON schemas: shared components of the OpenAPI document. */
const apiError = {
  $id: 'ApiError',
  type: 'object',
  description: 'Error body of the SMS v3 and RCS v2 endpoints.',
  required: ['errorCode', 'description', 'action', 'violations', 'resources'],
  additionalProperties: false,
  properties: {
    errorCode: { type: 'string', example: 'E400' },
    description: { type: 'string' },
    action: { type: 'string' },
    violations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: { property: { type: 'string' }, violation: { type: 'string' } },
      },
    },
    resources: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' }, url: { type: 'string' } } },
    },
  },
} as const;

const apiException = {
  $id: 'ApiException',
  type: 'object',
  description: 'Error body of the legacy SMS, inbox, Subscriptions, 2FA, Calls and Switchboard endpoints.',
  additionalProperties: false,
  properties: {
    requestError: {
      type: 'object',
      additionalProperties: false,
      properties: {
        serviceException: {
          type: 'object',
          additionalProperties: false,
          properties: {
            messageId: { type: 'string', example: 'BAD_REQUEST' },
            text: { type: 'string' },
            validationErrors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
    },
  },
} as const;

const ERROR_STATUSES: Record<number, string> = {
  400: 'Bad request: the violations name each invalid field',
  401: 'Missing or invalid API key',
  404: 'Not found',
  500: 'Internal error',
  503: 'The server is shutting down: retry shortly',
};

const TOO_MANY_REQUESTS = {
  description: 'A rate limit refused the request; the error text names it, and nothing was done',
  headers: {
    'Retry-After': { type: 'integer', minimum: 1, description: 'Seconds until the window of the limit that refused ends' },
  },
} as const;

/**
 * Documents the family's error body on every API route, so the OpenAPI document shows what a
 * client's error parser receives; a 429 only on the routes that enforce a limit. Operational
 * routes (public ones) are left as they are.
 */
export function documentErrorResponses(app: FastifyInstance): void {
  app.addSchema(apiError);
  app.addSchema(apiException);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.public || !route.schema || route.schema.hide) return;
    const ref = { $ref: errorFamilyForUrl(route.url) === 'new' ? 'ApiError#' : 'ApiException#' };
    const response = (route.schema.response ??= {}) as Record<string, unknown>;
    for (const [status, description] of Object.entries(ERROR_STATUSES)) {
      response[status] ??= { description, ...ref };
    }
    if (route.config?.rateLimited) response[429] ??= { ...TOO_MANY_REQUESTS, ...ref };
  });
}
