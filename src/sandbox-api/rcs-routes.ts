import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { badRequest, notFound, violation } from '../core/errors/api-problem.js';
import { formatInfobipTime } from '../core/infobip-time.js';
import { normalizeNumber } from '../core/phone-number.js';
import type { RcsInboundContent } from '../network/rcs-network.js';
import {
  INBOUND_KINDS,
  RCS_TAG,
  rcsInboundBodySchema,
  rcsInboundResponseSchema,
  rcsMessageParamsSchema,
  seenResponseSchema,
  type RcsInboundBody,
  type RcsMessageParams,
} from './rcs-schemas.js';

/**
 * The end user's side of RCS, played by a test or a person: open (see) a message you sent, and
 * write to your RCS sender (a text, a tapped suggestion, a shared location). The sandbox network's
 * handset reports both as an RCS provider reports its users' events.
 */
export function registerSandboxRcsRoutes(app: FastifyInstance, ctx: AppContext): void {

  app.post<{ Params: RcsMessageParams }>(
    '/sandbox/1/rcs/messages/:messageId/seen',
    {
      config: { optionalBody: true },
      schema: {
        tags: [RCS_TAG],
        summary: 'The end user opens an RCS message you sent',
        description:
          "The seen report goes to the message's webhooks.seen.url, or else to your RCS subscriptions to SEEN. " +
          'The message must have reached the phone (delivered, or sent and awaiting its report): otherwise 400. ' +
          'Each call sends another seen report. No body is needed.',
        params: rcsMessageParamsSchema,
        response: { 200: seenResponseSchema },
      },
    },
    async (request) => {
      const outcome = await ctx.engine.sandboxRcsSeen(request.accountId, request.params.messageId);
      if (outcome.kind === 'unknown') throw notFound();
      if (outcome.kind === 'not-on-handset') throw violation('messageId', `the message ${outcome.why}, so it cannot be seen`);
      return { messageId: outcome.messageId, seenAt: formatInfobipTime(outcome.seenAt), pushed: outcome.pushed };
    },
  );

  app.post<{ Body: RcsInboundBody }>(
    '/sandbox/1/rcs/inbound',
    {
      schema: {
        tags: [RCS_TAG],
        summary: 'The end user writes to your RCS sender: a text, a tapped suggestion or a shared location',
        description:
          'Pushed to your RCS subscriptions to INBOUND_MESSAGE whose resources name the sender (or list none), ' +
          "in Infobip's RCS inbound shape; with no such subscription it is dropped.",
        body: rcsInboundBodySchema,
        response: { 200: rcsInboundResponseSchema },
      },
    },
    async (request) => {
      const body = request.body;
      const written = await ctx.engine.sandboxRcsInbound(request.accountId, normalizeNumber(body.from), body.to, inboundContent(body));
      const response: Record<string, unknown> = {
        messageId: written.messageId,
        from: written.from,
        to: written.to,
        receivedAt: formatInfobipTime(written.receivedAt),
        message: written.content,
        pushed: written.pushed,
      };
      if (written.pairedMessageId !== undefined) response.pairedMessageId = written.pairedMessageId;
      return response;
    },
  );
}

function inboundContent(body: RcsInboundBody): RcsInboundContent {
  const given = INBOUND_KINDS.filter((kind) => body[kind] !== undefined);
  if (given.length === 0) throw badRequest([{ property: 'text', violation: 'one of text, suggestion or location is required' }]);
  if (given.length > 1) {
    throw badRequest(given.slice(1).map((kind) => ({ property: kind, violation: `only one of text, suggestion or location may be given` })));
  }
  if (body.text !== undefined) return { type: 'TEXT', text: body.text };
  if (body.suggestion !== undefined) return { type: 'SUGGESTION', text: body.suggestion.text, postbackData: body.suggestion.postbackData };
  return { type: 'LOCATION', latitude: body.location!.latitude, longitude: body.location!.longitude };
}
