import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblem, type ProblemDetails, type Violation } from './api-problem.js';
import { errorBody } from './envelopes.js';
import { errorFamilyForUrl } from './family.js';
import { violationsFromSchemaErrors } from './validation-violations.js';

export function sendProblem(request: FastifyRequest, reply: FastifyReply, status: number, violations: Violation[] = [], details: ProblemDetails = {}): FastifyReply {
  if (details.retryAfterSeconds !== undefined) reply.header('retry-after', String(details.retryAfterSeconds));
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(errorFamilyForUrl(request.url), status, violations, details.text));
}

function classify(error: FastifyError | ApiProblem): { status: number; violations: Violation[]; details?: ProblemDetails } {
  if (error instanceof ApiProblem) return { status: error.statusCode, violations: error.violations, details: error.details };
  if (error.validation) {
    return { status: 400, violations: violationsFromSchemaErrors(error.validation) };
  }
  const status = error.statusCode ?? 500;
  if (status === 401 || status === 403 || status === 404 || status === 429) return { status, violations: [] };
  if (status >= 400 && status < 500) {
    const text =
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'must not be empty'
        : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'unsupported content type; send application/json'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'request body is too large'
            : 'malformed JSON';
    return { status: 400, violations: [{ property: 'body', violation: text }] };
  }
  return { status: 500, violations: [] };
}

/**
 * Every error leaves in the endpoint family's envelope; nothing else (no stack, no Fastify default
 * body). Once the server starts closing, requests that still arrive on open connections get a 503
 * in that envelope too (Fastify's own `return503OnClosing` has a body of its own), while those
 * already in flight finish.
 */
export function installErrorHandling(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    void sendProblem(request, reply.header('connection', 'close').header('retry-after', '1'), 503);
  });
  app.setErrorHandler((error: FastifyError | ApiProblem, request, reply) => {
    const { status, violations, details } = classify(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(request, reply, status, violations, details);
  });
  app.setNotFoundHandler((request, reply) => sendProblem(request, reply, 404));
}
