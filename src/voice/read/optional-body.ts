import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * Route hook (preValidation) of the actions whose body Infobip makes optional (hangup, pre-answer,
 * stop-play): a request without a body is read as `{}`, where Fastify would refuse it against the
 * body schema ("body must be object").
 */
export function absentBodyAsEmpty(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  request.body ??= {};
  done();
}
