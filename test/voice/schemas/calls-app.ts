import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { installErrorHandling } from '../../../src/core/errors/error-handling.js';
import { documentErrorResponses } from '../../../src/core/errors/error-schemas.js';
import { registerOpenApi } from '../../../src/core/openapi.js';
import { installValidation } from '../../../src/core/validation.js';
import { readCallFilter } from '../../../src/voice/read/call-filter.js';
import { readAnswer, readHangup, readPreAnswer, readSendDtmf } from '../../../src/voice/read/call-control.js';
import { readCreateCall } from '../../../src/voice/read/create-call.js';
import { readCaptureDtmf, readPlay, readSay, readStopPlay } from '../../../src/voice/read/media-actions.js';
import { absentBodyAsEmpty } from '../../../src/core/optional-body.js';
import {
  actionResponseSchema,
  answerBodySchema,
  captureDtmfBodySchema,
  hangupBodySchema,
  playBodySchema,
  preAnswerBodySchema,
  sayBodySchema,
  sendDtmfBodySchema,
  stopPlayBodySchema,
} from '../../../src/voice/schemas/actions.js';
import { callLogSchema, callLogsPageSchema, callSchema, callsPageSchema } from '../../../src/voice/schemas/call-responses.js';
import { callParamsSchema, callsQuerySchema, createCallBodySchema, type CallsQuery } from '../../../src/voice/schemas/calls.js';
import {
  configurationParamsSchema,
  configurationSchema,
  configurationsPageSchema,
  configurationsQuerySchema,
  createConfigurationBodySchema,
  updateConfigurationBodySchema,
} from '../../../src/voice/schemas/configurations.js';
import { fileParamsSchema, fileSchema, filesPageSchema, filesQuerySchema } from '../../../src/voice/schemas/files.js';

/**
 * A Fastify app with the server's own error handling and validation, one route per Calls schema at
 * its real path (so errors come in the Calls envelope). Request routes answer what the reader made
 * of the body, or the validated query/params; `/test/…` routes serialize `answer` through a
 * response schema.
 */

export const DEFAULTS = { connectTimeoutMs: 30_000, maxDurationMs: 28_800_000 };
export const SINCE = Date.UTC(2025, 2, 1);
export const ACCOUNT = 'acme';

export interface CallsApp {
  app: FastifyInstance;
  /** What the next `/test/…` route serializes. */
  answer: unknown;
  request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  body: any;
}

const RESPONSE_SCHEMAS = {
  call: callSchema,
  'call-log': callLogSchema,
  calls: callsPageSchema,
  'call-logs': callLogsPageSchema,
  configuration: configurationSchema,
  configurations: configurationsPageSchema,
  file: fileSchema,
  files: filesPageSchema,
  action: actionResponseSchema,
} as const;

export async function startCallsApp(options: { openApi?: boolean } = {}): Promise<CallsApp> {
  // Ids reach 128 characters; Fastify's router refuses path parameters past 100 by default.
  const app = Fastify({ routerOptions: { maxParamLength: 256 } });
  installErrorHandling(app);
  installValidation(app);
  if (options.openApi) {
    await registerOpenApi(app, 'test');
    documentErrorResponses(app);
  }
  const harness: CallsApp = {
    app,
    answer: undefined,
    async request(method, url, body) {
      const response = await app.inject({ method, url, ...(body === undefined ? {} : { payload: body as object }) });
      return { status: response.statusCode, body: response.body === '' ? undefined : response.json() };
    },
    close: () => app.close(),
  };

  app.post('/calls/1/configurations', { schema: { body: createConfigurationBodySchema } }, async (request) => request.body);
  app.get('/calls/1/configurations', { schema: { querystring: configurationsQuerySchema } }, async (request) => request.query);
  app.get('/calls/1/configurations/:callsConfigurationId', { schema: { params: configurationParamsSchema } }, async (request) => request.params);
  app.put(
    '/calls/1/configurations/:callsConfigurationId',
    { schema: { params: configurationParamsSchema, body: updateConfigurationBodySchema } },
    async (request) => ({ params: request.params, body: request.body }),
  );

  app.post('/calls/1/calls', { schema: { body: createCallBodySchema } }, async (request) => readCreateCall(request.body as never, DEFAULTS));
  for (const [url, live] of [['/calls/1/calls', true], ['/calls/1/calls/history', false]] as const) {
    app.get(url, { schema: { querystring: callsQuerySchema } }, async (request) => readCallFilter(request.query as CallsQuery, live, SINCE, ACCOUNT));
  }
  app.get('/calls/1/calls/:callId', { schema: { params: callParamsSchema } }, async (request) => request.params);

  const actions = [
    ['say', sayBodySchema, readSay],
    ['play', playBodySchema, readPlay],
    ['stop-play', stopPlayBodySchema, readStopPlay],
    ['answer', answerBodySchema, readAnswer],
    ['pre-answer', preAnswerBodySchema, readPreAnswer],
    ['hangup', hangupBodySchema, readHangup],
    ['capture/dtmf', captureDtmfBodySchema, readCaptureDtmf],
    ['send-dtmf', sendDtmfBodySchema, readSendDtmf],
  ] as const;
  const optionalBodies = new Set(['stop-play', 'pre-answer', 'hangup']);
  for (const [action, schema, read] of actions) {
    app.post(
      `/calls/1/calls/:callId/${action}`,
      {
        schema: { params: callParamsSchema, body: schema },
        ...(optionalBodies.has(action) ? { preValidation: absentBodyAsEmpty } : {}),
      },
      async (request) => (read as (body: unknown) => unknown)(request.body),
    );
  }

  app.get('/calls/1/files', { schema: { querystring: filesQuerySchema } }, async (request) => request.query);
  app.get('/calls/1/files/:fileId', { schema: { params: fileParamsSchema } }, async (request) => request.params);

  for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) {
    app.get(`/test/${name}`, { schema: { response: { 200: schema } } }, async () => harness.answer);
  }
  await app.ready();
  return harness;
}

/** The `validationErrors` of a Calls 400, after checking it is one. */
export function validationErrors(answer: Answer): Record<string, string[]> {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  const exception = answer.body.requestError.serviceException;
  assert.equal(exception.messageId, 'BAD_REQUEST');
  return exception.validationErrors;
}

/** Asserts a 400 whose only refused property is `property` (and, when given, with this text). */
export function assertRefused(answer: Answer, property: string, violation?: string | RegExp): void {
  const errors = validationErrors(answer);
  assert.deepEqual(Object.keys(errors), [property], JSON.stringify(errors));
  if (typeof violation === 'string') assert.ok(errors[property]!.includes(violation), JSON.stringify(errors));
  else if (violation) assert.ok(errors[property]!.some((text) => violation.test(text)), JSON.stringify(errors));
}

export function assertAccepted(answer: Answer): void {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A copy of `body` with the dotted path `at` set to `value` (undefined removes it). */
export function withField<T extends object>(body: T, at: string, value: Json | undefined): T {
  const copy = structuredClone(body) as Record<string, Json>;
  const keys = at.split('.');
  let node = copy;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, Json>;
  }
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy as T;
}
