import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * Route hook (preValidation) of the endpoints whose body Infobip makes optional (the Calls actions
 * hangup, pre-answer and stop-play; a 2FA resend): a request without a body is read as `{}`, where
 * Fastify would refuse it against the body schema ("body must be object"). Such routes also set
 * `config.optionalBody`, so that an empty JSON body is taken too (json-body.ts).
 */
export function absentBodyAsEmpty(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  request.body ??= {};
  done();
}
