import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { v3StyleSendResponseSchema } from '../../sms/schemas/send-v3.js';
import { SmsAcceptor } from '../../sms/accept/sms-acceptor.js';
import { toSendRequest } from '../accept/send-request.js';
import { readRcsSendRequest } from '../read/read-send.js';
import { rcsSendBodySchema, type RcsSendBody } from '../schemas/send.js';

const rcsSendResponseSchema = v3StyleSendResponseSchema({ type: 'object', properties: {} });

/** `POST /rcs/2/messages`: RCS messages accepted onto the message pipeline, as SMS are. */
export function registerRcsSendRoutes(app: FastifyInstance, ctx: AppContext): void {
  const acceptor = new SmsAcceptor({ store: ctx.store, writer: ctx.messageWriter, metrics: ctx.metrics });

  app.post<{ Body: RcsSendBody }>(
    '/rcs/2/messages',
    {
      schema: {
        tags: ['RCS'],
        summary: 'Send RCS messages',
        description:
          'Each destination becomes one message with its own messageId. In the sandbox, phones ending in 9021 cannot take RCS: ' +
          'the message fails over to its smsFailover (its RCS report then says PENDING_ENROUTE with EC_UNKNOWN_USER), ' +
          'or ends UNDELIVERABLE with EC_UNKNOWN_USER. Any PROVIDER_TEMPLATE templateId is taken: there is no template registry.',
        body: rcsSendBodySchema,
        response: { 200: rcsSendResponseSchema },
      },
    },
    async (request) => {
      const now = ctx.clock.now();
      const outcome = await acceptor.accept(request.accountId, toSendRequest(readRcsSendRequest(request.body, now)), now);
      return {
        bulkId: outcome.bulkId,
        messages: outcome.entries.map((entry) => ({ messageId: entry.messageId, status: entry.status, destination: entry.to, details: {} })),
      };
    },
  );
}
