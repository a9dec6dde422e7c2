import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { notFound } from '../../core/errors/api-problem.js';
import { dropEmptyQueryValues } from '../../core/query-params.js';
import type { CallRecord } from '../../core/store/types.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MAX_DURATION_MS } from '../calls-service.js';
import { readCallFilter } from '../read/call-filter.js';
import { readCreateCall } from '../read/create-call.js';
import { callLogSchema, callLogsPageSchema, callSchema, callsPageSchema } from '../schemas/call-responses.js';
import { callParamsSchema, callsQuerySchema, createCallBodySchema, type CallParams, type CallsQuery, type CreateCallBody } from '../schemas/calls.js';
import { callsRetentionMs } from '../voice-setup.js';
import { renderCall, renderCallLog } from '../wire/call-wire.js';
import { paging, TAGS } from './route-common.js';

/** Calls: create an outbound call, read one, list the live ones and the history. */
export function registerCallRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { store, clock } = ctx;

  app.post<{ Body: CreateCallBody }>(
    '/calls/1/calls',
    {
      schema: {
        tags: TAGS,
        summary: 'Create call',
        description: 'Calls the endpoint. Events (CALL_STARTED, CALL_RINGING, CALL_ESTABLISHED, …) go to the VOICE_VIDEO subscriptions of the calls configuration; an unknown configuration is a 404.',
        body: createCallBodySchema,
        response: { 201: callSchema },
      },
    },
    async (request, reply) => {
      const call = await ctx.calls.createOutbound(
        request.accountId,
        readCreateCall(request.body, { connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS, maxDurationMs: DEFAULT_MAX_DURATION_MS }),
      );
      return reply.code(201).send(renderCall(call, clock.now()));
    },
  );

  app.get<{ Querystring: CallsQuery }>(
    '/calls/1/calls',
    {
      preValidation: dropEmptyQueryValues,
      schema: { tags: TAGS, summary: 'Get calls', description: 'Calls not yet ended, newest first.', querystring: callsQuerySchema, response: { 200: callsPageSchema } },
    },
    async (request) => {
      const page = await listCalls(ctx, request.accountId, request.query, true);
      return { results: page.results.map((call) => renderCall(call, clock.now())), paging: page.paging };
    },
  );

  app.get<{ Querystring: CallsQuery }>(
    '/calls/1/calls/history',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: TAGS,
        summary: 'Get calls history',
        description: 'Calls that ended in the last five days (or the store retention, if longer), newest first.',
        querystring: callsQuerySchema,
        response: { 200: callLogsPageSchema },
      },
    },
    async (request) => {
      const page = await listCalls(ctx, request.accountId, request.query, false);
      return { results: page.results.map((call) => renderCallLog(call, clock.now())), paging: page.paging };
    },
  );

  app.get<{ Params: CallParams }>(
    '/calls/1/calls/:callId',
    { schema: { tags: TAGS, summary: 'Get call', params: callParamsSchema, response: { 200: callSchema } } },
    async (request) => renderCall(await ctx.calls.get(request.accountId, request.params.callId), clock.now()),
  );

  app.get<{ Params: CallParams }>(
    '/calls/1/calls/:callId/history',
    { schema: { tags: TAGS, summary: 'Get call history', params: callParamsSchema, response: { 200: callLogSchema } } },
    async (request) => {
      const call = await store.calls.get(request.accountId, request.params.callId);
      // The history holds calls that ended.
      if (!call || call.endTime === undefined) throw notFound();
      return renderCallLog(call, clock.now());
    },
  );
}

async function listCalls(ctx: AppContext, accountId: string, query: CallsQuery, live: boolean): Promise<{ results: CallRecord[]; paging: ReturnType<typeof paging> }> {
  const since = ctx.clock.now() - callsRetentionMs(ctx.config);
  const { filter, matchesNothing } = readCallFilter(query, live, since, accountId);
  const { results, total } = matchesNothing ? { results: [], total: 0 } : await ctx.store.calls.list(filter);
  return { results, paging: paging(filter.page, filter.size, total) };
}
