import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { notFound } from '../core/errors/api-problem.js';
import { formatInfobipTime } from '../core/infobip-time.js';
import { DEFAULT_MAX_DURATION_MS } from '../voice/calls-service.js';
import { renderCall } from '../voice/wire/call-wire.js';
import {
  CALLS_TAG,
  callIdParamsSchema,
  dtmfBodySchema,
  inboundCallBodySchema,
  timelineResponseSchema,
  type CallIdParams,
  type DtmfBody,
  type InboundCallBody,
} from './call-schemas.js';

/**
 * The far end of calls, played by a test or a person: call one of your numbers from a virtual phone,
 * press keys, hang up, and read (or hear) what happened on a call.
 */
export function registerSandboxCallRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: InboundCallBody }>(
    '/sandbox/1/calls/inbound',
    {
      schema: {
        tags: [CALLS_TAG],
        summary: 'Place a call from a virtual phone to one of your numbers',
        description: 'The call arrives like one from a real network: CALL_RECEIVED goes to the VOICE_VIDEO subscriptions of its calls configuration, and the application answers (or not) through the Calls API.',
        body: inboundCallBodySchema,
      },
    },
    async (request) => {
      const { from, to, callsConfigurationId, connectTimeout } = request.body;
      const call = await ctx.calls.createInbound(request.accountId, {
        from,
        to,
        ...(callsConfigurationId === undefined ? {} : { configurationId: callsConfigurationId }),
        connectTimeoutMs: (connectTimeout ?? 60) * 1000,
        maxDurationMs: DEFAULT_MAX_DURATION_MS,
      });
      return renderCall(call, ctx.clock.now());
    },
  );

  app.post<{ Params: CallIdParams; Body: DtmfBody }>(
    '/sandbox/1/calls/:callId/dtmf',
    {
      schema: {
        tags: [CALLS_TAG],
        summary: 'Press keys on the phone at the far end of a call',
        description: 'Keys stop speech or audio that stops on them, and feed a DTMF capture; they are ignored while the call is not connected.',
        params: callIdParamsSchema,
        body: dtmfBodySchema,
      },
    },
    async (request) => {
      const call = await ctx.calls.act(request.accountId, request.params.callId, { kind: 'network', event: { type: 'dtmf', digits: request.body.digits } });
      return renderCall(call, ctx.clock.now());
    },
  );

  app.post<{ Params: CallIdParams }>(
    '/sandbox/1/calls/:callId/hangup',
    {
      schema: {
        tags: [CALLS_TAG],
        summary: 'Hang up a call from the phone at its far end',
        description: 'An answered call ends FINISHED (NORMAL_HANGUP); an unanswered one ends REJECTED (outbound) or CANCELLED (inbound); hangupSource is ENDPOINT.',
        params: callIdParamsSchema,
      },
    },
    async (request) => {
      const call = await ctx.calls.act(request.accountId, request.params.callId, { kind: 'network', event: { type: 'hangup' } });
      return renderCall(call, ctx.clock.now());
    },
  );

  app.get<{ Params: CallIdParams }>(
    '/sandbox/1/calls/:callId/timeline',
    {
      schema: {
        tags: [CALLS_TAG],
        summary: "A call's media timeline",
        description: 'States, what was said (text, language) and played (file or URL), keys pressed at the far end and sent by the application, with their times.',
        params: callIdParamsSchema,
        response: { 200: timelineResponseSchema },
      },
    },
    async (request) => {
      const { accountId } = request;
      const call = await ctx.calls.get(accountId, request.params.callId);
      const entries = await ctx.store.calls.timeline(accountId, call.callId);
      return { callId: call.callId, entries: entries.map((e) => ({ at: formatInfobipTime(e.at), type: e.type, ...e.data })) };
    },
  );

  app.get<{ Params: CallIdParams }>(
    '/sandbox/1/calls/:callId/audio',
    {
      schema: {
        tags: [CALLS_TAG],
        summary: "What the far end of a call heard, as a WAV file",
        description: 'Speech and played audio mixed at their times from the answer (or the first early media) to the end (or now), mono 16-bit PCM at the speech engine\'s rate; key presses as their tones.',
        params: callIdParamsSchema,
        produces: ['audio/wav'],
      },
    },
    async (request, reply) => {
      const wav = await ctx.engine.callAudio(request.accountId, request.params.callId);
      if (!wav) throw notFound();
      return reply.type('audio/wav').send(Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength));
    },
  );
}
