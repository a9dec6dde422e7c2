import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { readLegacyBinaryRequest, readLegacyTextRequest } from '../accept/read-legacy.js';
import { legacyResponse } from '../accept/responses.js';
import type { SmsAcceptor } from '../accept/sms-acceptor.js';
import {
  sendLegacyBinaryBodySchema,
  sendLegacyResponseSchema,
  sendLegacyTextBodySchema,
  type SendLegacyBinaryBody,
  type SendLegacyTextBody,
} from '../schemas/send-legacy.js';

/** The legacy send endpoints: same pipeline as v3, legacy field names and error envelope. */
export function registerLegacySendRoutes(app: FastifyInstance, ctx: AppContext, acceptor: SmsAcceptor): void {
  app.post<{ Body: SendLegacyTextBody }>(
    '/sms/2/text/advanced',
    {
      schema: {
        tags: ['SMS (legacy)'],
        summary: 'Send text SMS messages (legacy)',
        body: sendLegacyTextBodySchema,
        response: { 200: sendLegacyResponseSchema },
      },
    },
    async (request) => {
      const now = ctx.clock.now();
      const sendRequest = readLegacyTextRequest(request.body, now);
      return legacyResponse(await acceptor.accept(request.accountId, sendRequest, now));
    },
  );

  app.post<{ Body: SendLegacyBinaryBody }>(
    '/sms/2/binary/advanced',
    {
      schema: {
        tags: ['SMS (legacy)'],
        summary: 'Send binary SMS messages (legacy)',
        body: sendLegacyBinaryBodySchema,
        response: { 200: sendLegacyResponseSchema },
      },
    },
    async (request) => {
      const now = ctx.clock.now();
      const sendRequest = readLegacyBinaryRequest(request.body, now);
      return legacyResponse(await acceptor.accept(request.accountId, sendRequest, now));
    },
  );
}
