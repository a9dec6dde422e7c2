import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { notFound } from '../../core/errors/api-problem.js';
import { formatInfobipTime } from '../../core/infobip-time.js';
import { dropEmptyQueryValues } from '../../core/query-params.js';
import type { PinRecord } from '../../core/store/types.js';
import { applicationParamsSchema, TAGS, type ApplicationParams } from '../schemas/applications.js';

const dateTime = { type: 'string', format: 'date-time', example: '2025-03-04T10:15:30.000+0000' } as const;

const pinsResponseSchema = {
  type: 'object',
  required: ['results'],
  properties: {
    results: {
      type: 'array',
      description: 'Newest first. Never the PIN, nor anything derived from it.',
      items: {
        type: 'object',
        required: ['pinId', 'msisdn', 'channel', 'sentAt', 'expiresAt', 'verified', 'wrongAttempts', 'attemptsRemaining', 'state'],
        properties: {
          pinId: { type: 'string' },
          msisdn: { type: 'string' },
          channel: { type: 'string', enum: ['SMS', 'VOICE'], description: 'How it was sent last.' },
          sentAt: { ...dateTime, description: 'When it was sent last (a resend sends the same PIN again).' },
          expiresAt: dateTime,
          verified: { type: 'boolean' },
          verifiedAt: dateTime,
          wrongAttempts: { type: 'integer' },
          attemptsRemaining: { type: 'integer' },
          state: { type: 'string', enum: ['PENDING', 'VERIFIED', 'EXPIRED', 'NO_MORE_ATTEMPTS'] },
          messageId: { type: 'string', description: 'SMS: the message that carried it last.' },
          callId: { type: 'string', description: 'VOICE: the call that said it last.' },
        },
      },
    },
  },
} as const;

interface PinsQuery {
  limit: number;
}

/** Where a PIN stands now: verified wins over a used-up or expired PIN, which can no longer be verified. */
function stateOf(pin: PinRecord, now: number): 'PENDING' | 'VERIFIED' | 'EXPIRED' | 'NO_MORE_ATTEMPTS' {
  if (pin.verifiedAt !== undefined) return 'VERIFIED';
  if (pin.wrongAttempts >= pin.maxAttempts) return 'NO_MORE_ATTEMPTS';
  if (pin.expiresAt <= now) return 'EXPIRED';
  return 'PENDING';
}

function pinWire(pin: PinRecord, now: number): Record<string, unknown> {
  const channel = pin.channel ?? 'SMS';
  const verifiedOnce = pin.verifiedAt !== undefined && !pin.allowMultipleVerifications;
  const wire: Record<string, unknown> = {
    pinId: pin.pinId,
    msisdn: pin.msisdn,
    channel,
    sentAt: formatInfobipTime(pin.sentAt),
    expiresAt: formatInfobipTime(pin.expiresAt),
    verified: pin.verifiedAt !== undefined,
  };
  if (pin.verifiedAt !== undefined) wire.verifiedAt = formatInfobipTime(pin.verifiedAt);
  wire.wrongAttempts = pin.wrongAttempts;
  wire.attemptsRemaining = verifiedOnce ? 0 : Math.max(0, pin.maxAttempts - pin.wrongAttempts);
  wire.state = stateOf(pin, now);
  if (pin.externalMessageId !== undefined) wire[channel === 'SMS' ? 'messageId' : 'callId'] = pin.externalMessageId;
  return wire;
}

/** Our own API for the console: the PINs an application sent, with how each fared. */
export function registerPinListRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: ApplicationParams; Querystring: PinsQuery }>(
    '/switchboard/1/2fa/applications/:appId/pins',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: TAGS,
        summary: "An application's PINs, newest first, with their attempts and outcome (Switchboard)",
        params: applicationParamsSchema,
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 1000, default: 200, description: 'Newest PINs to return.' } },
        },
        response: { 200: pinsResponseSchema },
      },
    },
    async (request) => {
      const { accountId } = request;
      if (!(await ctx.store.twoFactorApplications.get(accountId, request.params.appId))) throw notFound();
      const pins = await ctx.store.pins.listForApplication(accountId, request.params.appId, request.query.limit);
      const now = ctx.clock.now();
      return { results: pins.map((pin) => pinWire(pin, now)) };
    },
  );
}
