import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { dropEmptyQueryValues } from '../../core/query-params.js';
import { absentBodyAsEmpty } from '../../core/optional-body.js';
import { applicationParamsSchema, TAGS, type ApplicationParams } from '../schemas/applications.js';
import {
  pinParamsSchema,
  resendPinBodySchema,
  sendPinBodySchema,
  sendPinQuerySchema,
  startAuthenticationSchema,
  verificationsQuerySchema,
  verificationsSchema,
  verifyPinBodySchema,
  verifyPinResponseSchema,
  type PinParams,
  type ResendPinBody,
  type SendPinBody,
  type SendPinQuery,
  type VerificationsQuery,
  type VerifyPinBody,
} from '../schemas/pins.js';
import type { PinChannel } from '../verify-service.js';
import { wireVerification } from '../wire.js';

const SEND_DESCRIPTION =
  'The PIN is stored (as a keyed hash) before its message leaves; a limit that refuses answers 429 and nothing is sent. ' +
  'In the sandbox the message shows on the phone (GET /sandbox/1/phones/{number}/messages).';

/**
 * Route hook (preValidation) of the SMS send: empty query values count as not given, and so does
 * `ncNeeded=undefined`, which Infobip's Node SDK sends when its caller leaves the flag out.
 */
async function ncNeededAsGiven(request: FastifyRequest): Promise<void> {
  await dropEmptyQueryValues(request);
  const query = request.query as { ncNeeded?: unknown };
  if (query.ncNeeded === 'undefined') delete query.ncNeeded;
}

/** Sending, resending and verifying PINs, and the verifications of a number. */
export function registerPinRoutes(app: FastifyInstance, ctx: AppContext): void {
  const channels: Array<{ channel: PinChannel; suffix: string; what: string }> = [
    { channel: 'sms', suffix: '', what: 'SMS' },
    { channel: 'voice', suffix: '/voice', what: 'voice call' },
  ];
  for (const { channel, suffix, what } of channels) {
    app.post<{ Body: SendPinBody; Querystring: SendPinQuery }>(
      `/2fa/2/pin${suffix}`,
      {
        preValidation: ncNeededAsGiven,
        config: { rateLimited: true },
        schema: {
          tags: TAGS,
          summary: `Send PIN over ${what}`,
          description: SEND_DESCRIPTION,
          ...(channel === 'sms' ? { querystring: sendPinQuerySchema } : {}),
          body: sendPinBodySchema,
          response: { 200: startAuthenticationSchema },
        },
      },
      async (request) => ctx.verify.send(request.accountId, channel, request.body, request.query.ncNeeded ?? true),
    );

    app.post<{ Params: PinParams; Body: ResendPinBody }>(
      `/2fa/2/pin/:pinId/resend${suffix}`,
      {
        preValidation: absentBodyAsEmpty,
        config: { optionalBody: true, rateLimited: true },
        schema: {
          tags: TAGS,
          summary: `Resend PIN over ${what}`,
          description: 'Sends the same PIN again; its time to live and attempts do not reset, and it counts against the send limits.',
          params: pinParamsSchema,
          body: resendPinBodySchema,
          response: { 200: startAuthenticationSchema },
        },
      },
      async (request) => ctx.verify.resend(request.accountId, request.params.pinId, channel, request.body),
    );
  }

  app.post<{ Params: PinParams; Body: VerifyPinBody }>(
    '/2fa/2/pin/:pinId/verify',
    {
      config: { rateLimited: true },
      schema: {
        tags: TAGS,
        summary: 'Verify phone number',
        description: 'A wrong PIN answers 200 with verified false and pinError; verifyPinLimit refusals answer 429.',
        params: pinParamsSchema,
        body: verifyPinBodySchema,
        response: { 200: verifyPinResponseSchema },
      },
    },
    async (request) => ctx.verify.verify(request.accountId, request.params.pinId, request.body.pin),
  );

  app.get<{ Params: ApplicationParams; Querystring: VerificationsQuery }>(
    '/2fa/2/applications/:appId/verifications',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: TAGS,
        summary: 'Get 2FA verification status',
        params: applicationParamsSchema,
        querystring: verificationsQuerySchema,
        response: { 200: verificationsSchema },
      },
    },
    async (request) => ({ verifications: (await ctx.verify.verifications(request.accountId, request.params.appId, request.query)).map(wireVerification) }),
  );
}
