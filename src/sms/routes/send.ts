import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { readV3Request } from '../accept/read-v3.js';
import { v3Response } from '../accept/responses.js';
import { SmsAcceptor } from '../accept/sms-acceptor.js';
import { sendV3BodySchema, sendV3ResponseSchema, type SendV3Body } from '../schemas/send-v3.js';
import { registerLegacySendRoutes } from './send-legacy.js';
import { registerSmsPreviewRoutes } from './preview.js';

/** The SMS send side: `POST /sms/3/messages`, the legacy `/sms/2/{text,binary}/advanced` and `/sms/1/preview`. */
export function registerSmsSendRoutes(app: FastifyInstance, ctx: AppContext): void {
  const acceptor = new SmsAcceptor({ store: ctx.store, writer: ctx.messageWriter, metrics: ctx.metrics });

  app.post<{ Body: SendV3Body }>(
    '/sms/3/messages',
    {
      schema: {
        tags: ['SMS'],
        summary: 'Send SMS messages (text or binary)',
        description:
          'Each destination becomes one message with its own messageId. Problems of a single destination (invalid number, ' +
          'duplicate messageId, too long) are reported as a REJECTED status in the 200 response; malformed requests get a 400.',
        body: sendV3BodySchema,
        response: { 200: sendV3ResponseSchema },
      },
    },
    async (request) => {
      const now = ctx.clock.now();
      const sendRequest = readV3Request(request.body, now);
      return v3Response(await acceptor.accept(request.accountId, sendRequest, now));
    },
  );

  registerLegacySendRoutes(app, ctx, acceptor);
  registerSmsPreviewRoutes(app);
}
