import type { Violation } from './api-problem.js';

/**
 * The two Infobip error bodies. Both carry exactly the documented keys: the Java SDK parses error
 * bodies strictly, so one extra key makes it drop the whole error.
 */
export type ErrorFamily = 'new' | 'legacy';

export interface NewErrorBody {
  errorCode: string;
  description: string;
  action: string;
  violations: Violation[];
  resources: Array<{ name: string; url: string }>;
}

export interface LegacyErrorBody {
  requestError: {
    serviceException: { messageId: string; text: string; validationErrors?: Record<string, string[]> };
  };
}

interface Canonical {
  description: string;
  action: string;
  resources: Array<{ name: string; url: string }>;
  legacyId: string;
  legacyText: string;
}

const CANONICAL: Record<number, Canonical> = {
  400: {
    description: 'Request cannot be processed.',
    action: 'Check the syntax, violations and adjust the request.',
    resources: [],
    legacyId: 'BAD_REQUEST',
    legacyText: 'Bad request',
  },
  401: {
    description: 'The request lacks valid authentication credentials for the requested resource.',
    action: 'Check the resources and adjust authentication credentials.',
    resources: [{ name: 'API Authentication', url: '/docs#authentication' }],
    legacyId: 'UNAUTHORIZED',
    legacyText: 'Invalid login details',
  },
  403: {
    description: 'Insufficient permissions to access the requested resource.',
    action: 'Repeat the request with new or different credentials.',
    resources: [],
    legacyId: 'FORBIDDEN',
    legacyText: 'Forbidden',
  },
  404: {
    description: 'Requested URL or resource not found.',
    action: 'Check the requested resource and try again.',
    resources: [],
    legacyId: 'NOT_FOUND',
    legacyText: 'Not found',
  },
  429: {
    description: 'Too many requests sent.',
    action: 'Check request rate limit specified in the API endpoint documentation resource.',
    resources: [],
    legacyId: 'TOO_MANY_REQUESTS',
    legacyText: 'Too many requests',
  },
  // Not among Infobip's documented codes: the answer of a server that is shutting down (the client
  // retries, on this node or another). Same envelope, its own code, so SDKs report it as a 5xx.
  503: {
    description: 'Service is unavailable: the server is shutting down.',
    action: 'Retry the request shortly.',
    resources: [],
    legacyId: 'SERVICE_UNAVAILABLE',
    legacyText: 'Service unavailable. Retry shortly.',
  },
  500: {
    description: 'Something went wrong.',
    action: 'Contact the support.',
    resources: [],
    legacyId: 'GENERAL_ERROR',
    legacyText: 'Something went wrong. Please contact support.',
  },
};

const canonicalFor = (status: number): Canonical => CANONICAL[status] ?? CANONICAL[status >= 500 ? 500 : 400]!;

export function newErrorBody(status: number, violations: Violation[] = []): NewErrorBody {
  const c = canonicalFor(status);
  return {
    errorCode: `E${status in CANONICAL ? status : status >= 500 ? 500 : 400}`,
    description: c.description,
    action: c.action,
    violations: violations.map((v) => ({ property: v.property, violation: v.violation })),
    resources: c.resources.map((r) => ({ name: r.name, url: r.url })),
  };
}

export function legacyErrorBody(status: number, violations: Violation[] = [], text?: string): LegacyErrorBody {
  const c = canonicalFor(status);
  const serviceException: LegacyErrorBody['requestError']['serviceException'] = {
    messageId: c.legacyId,
    text: text ?? c.legacyText,
  };
  if (violations.length > 0) {
    const validationErrors: Record<string, string[]> = {};
    for (const v of violations) (validationErrors[v.property] ??= []).push(v.violation);
    serviceException.validationErrors = validationErrors;
  }
  return { requestError: { serviceException } };
}

/** `legacyText` replaces the legacy envelope's usual text; the new envelope keeps its canonical description. */
export function errorBody(family: ErrorFamily, status: number, violations: Violation[] = [], legacyText?: string): NewErrorBody | LegacyErrorBody {
  return family === 'new' ? newErrorBody(status, violations) : legacyErrorBody(status, violations, legacyText);
}
