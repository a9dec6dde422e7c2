/** A request property and what is wrong with it; `property` uses Infobip's `messages[0].content.text` form. */
export interface Violation {
  property: string;
  violation: string;
}

/** What an error says beyond its status and violations. */
export interface ProblemDetails {
  /** The legacy envelope's `text`, where it says more than the status's usual one. */
  text?: string;
  /** Whole seconds after which the request may succeed, sent as `Retry-After`. */
  retryAfterSeconds?: number;
}

/**
 * An error meant for the caller. Routes throw it; the error plugin renders it in the endpoint
 * family's envelope, so route code never builds error bodies itself.
 */
export class ApiProblem extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 429 | 500,
    readonly violations: Violation[] = [],
    message?: string,
    readonly details: ProblemDetails = {},
  ) {
    super(message ?? `HTTP ${statusCode}`);
  }
}

export const badRequest = (violations: Violation[], message?: string): ApiProblem =>
  new ApiProblem(400, violations, message);

export const violation = (property: string, text: string): ApiProblem =>
  new ApiProblem(400, [{ property, violation: text }]);

export const notFound = (message?: string): ApiProblem => new ApiProblem(404, [], message);

/** 429: `text` names the limit that refused (legacy envelope); `retryAfterMs` is how long until it lets a request through. */
export const tooManyRequests = (text: string, retryAfterMs: number): ApiProblem =>
  new ApiProblem(429, [], text, { text, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1_000)) });
