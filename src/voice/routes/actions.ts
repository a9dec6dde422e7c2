import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../../context.js';
import type { CallInput } from '../machine/call-input.js';
import { readAnswer, readHangup, readPreAnswer, readSendDtmf } from '../read/call-control.js';
import { readCaptureDtmf, readPlay, readSay, readStopPlay } from '../read/media-actions.js';
import { absentBodyAsEmpty } from '../../core/optional-body.js';
import {
  actionResponseSchema,
  answerBodySchema,
  captureDtmfBodySchema,
  hangupBodySchema,
  type HangupBody,
  playBodySchema,
  preAnswerBodySchema,
  sayBodySchema,
  sendDtmfBodySchema,
  stopPlayBodySchema,
} from '../schemas/actions.js';
import { callSchema } from '../schemas/call-responses.js';
import { callParamsSchema, type CallParams } from '../schemas/calls.js';
import { renderCall } from '../wire/call-wire.js';
import { TAGS } from './route-common.js';

interface ActionRoute {
  path: string;
  summary: string;
  description: string;
  /** Infobip makes the body optional (a missing body reads as `{}`). */
  optionalBody?: boolean;
  body?: object;
  read(body: any): CallInput;
}

/** Infobip's ActionResponse: actions are accepted now and report through events. */
const PENDING = { status: 'PENDING' } as const;

const ACTIONS: ActionRoute[] = [
  { path: 'say', summary: 'Say text', description: 'Queued after what plays; SAY_FINISHED when spoken, ERROR when it cannot be.', body: sayBodySchema, read: readSay },
  { path: 'play', summary: 'Play file', description: 'FILE, URL (wav or mp3) or TEXT content, queued after what plays; PLAY_FINISHED when played, ERROR when the audio cannot be fetched or decoded.', body: playBodySchema, read: readPlay },
  { path: 'stop-play', summary: 'Stop playing file', description: 'Stops what plays and drops what waits; each reports playedCompletely false.', optionalBody: true, body: stopPlayBodySchema, read: readStopPlay },
  { path: 'capture/dtmf', summary: 'Capture DTMF', description: 'DTMF_CAPTURED at maxLength digits, the terminator, or a timeout.', body: captureDtmfBodySchema, read: readCaptureDtmf },
  { path: 'send-dtmf', summary: 'Send DTMF', description: 'The far end hears the keys.', body: sendDtmfBodySchema, read: readSendDtmf },
  { path: 'answer', summary: 'Answer', description: 'Answers an inbound call in CALLING, RINGING or PRE_ESTABLISHED: CALL_ESTABLISHED.', body: answerBodySchema, read: readAnswer },
  { path: 'pre-answer', summary: 'Pre-answer', description: 'Early media on an inbound call not yet answered: CALL_PRE_ESTABLISHED.', optionalBody: true, body: preAnswerBodySchema, read: readPreAnswer },
  { path: 'send-ringing', summary: 'Send ringing', description: 'An inbound call in CALLING rings: CALL_RINGING.', read: () => ({ kind: 'send-ringing' }) },
];

/**
 * The actions on a call: each is one step of its state machine, stored before the answer; an action
 * the call's state does not allow is a 400 naming the call. Hangup answers with the call as it ended.
 */
export function registerCallActionRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const action of ACTIONS) {
    const options: RouteShorthandOptions = {
      ...(action.optionalBody ? { preValidation: absentBodyAsEmpty, config: { optionalBody: true } } : {}),
      schema: {
        tags: TAGS,
        summary: action.summary,
        description: action.description,
        params: callParamsSchema,
        ...(action.body ? { body: action.body } : {}),
        response: { 200: actionResponseSchema },
      },
    };
    app.post<{ Params: CallParams; Body: unknown }>(`/calls/1/calls/:callId/${action.path}`, options, async (request) => {
      await ctx.calls.act(request.accountId, request.params.callId, action.read(request.body));
      return PENDING;
    });
  }

  app.post<{ Params: CallParams; Body: HangupBody }>(
    '/calls/1/calls/:callId/hangup',
    {
      preValidation: absentBodyAsEmpty,
      config: { optionalBody: true },
      schema: {
        tags: TAGS,
        summary: 'Hangup',
        description: 'NORMAL_HANGUP (the default once established) only for established calls, MACHINE_DETECTED only for established outbound ones, the other codes only before.',
        params: callParamsSchema,
        body: hangupBodySchema,
        response: { 200: callSchema },
      },
    },
    async (request) => renderCall(await ctx.calls.act(request.accountId, request.params.callId, readHangup(request.body)), ctx.clock.now()),
  );
}
