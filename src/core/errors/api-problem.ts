/** A request property and what is wrong with it; `property` uses Infobip's `messages[0].content.text` form. */
export interface Violation {
  property: string;
  violation: string;
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
  ) {
    super(message ?? `HTTP ${statusCode}`);
  }
}

export const badRequest = (violations: Violation[], message?: string): ApiProblem =>
  new ApiProblem(400, violations, message);

export const violation = (property: string, text: string): ApiProblem =>
  new ApiProblem(400, [{ property, violation: text }]);

export const notFound = (message?: string): ApiProblem => new ApiProblem(404, [], message);
