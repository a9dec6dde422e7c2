import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { badRequest, notFound } from '../errors/api-problem.js';
import type { Subscription } from '../store/types.js';
import { resourcesOf } from './stored-profile.js';
import { buildSubscription, type SubscriptionBody } from './subscription-input.js';
import {
  channelParamsSchema,
  createBodySchema,
  idOnlyResponseSchema,
  listQuerySchema,
  pageResponseSchema,
  subscriptionParamsSchema,
  subscriptionResponseSchema,
  updateBodySchema,
} from './subscription-schemas.js';
import { idOnlyWire, subscriptionWire } from './subscription-wire.js';

/**
 * The subset of Infobip's Subscriptions API that decides where SMS delivery reports, inbound messages
 * and call events are pushed. The channels served are those of `subscription-channels.ts` (others
 * are a 400 naming `channel`); profiles and security settings are defined inline in a subscription
 * rather than through their own APIs.
 */

interface ChannelParams {
  channel: string;
}
interface SubscriptionParams extends ChannelParams {
  subscriptionId: string;
}
interface ListQuery {
  page: number;
  size: number;
  applicationId?: string[];
  entityId?: string[];
  callsConfigurationId?: string[];
  resource?: string[];
  user?: string[];
}

const tags = ['Subscriptions'];

/** AND over every filter; each value of a filter must be present. `user` is ignored (users are not kept). */
function matchesFilters(subscription: Subscription, query: ListQuery): boolean {
  const criteria = subscription.criteria ?? [];
  const inCriteria = (field: string, values: string[] | undefined): boolean =>
    (values ?? []).every((value) => criteria.some((pair) => pair[field] === value));
  const resources = resourcesOf(subscription);
  return (
    inCriteria('applicationId', query.applicationId) &&
    inCriteria('entityId', query.entityId) &&
    inCriteria('callsConfigurationId', query.callsConfigurationId) &&
    (query.resource ?? []).every((value) => resources.includes(value))
  );
}

const locationOf = (channel: string, subscriptionId: string): string =>
  `/subscriptions/1/subscription/${channel}/${encodeURIComponent(subscriptionId)}`;

export function registerSubscriptionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { store, clock, subscriptions: matcher } = ctx;

  async function existing(accountId: string, params: SubscriptionParams): Promise<Subscription> {
    const found = await store.subscriptions.get(accountId, params.subscriptionId);
    if (!found || found.channel !== params.channel) throw notFound();
    return found;
  }

  app.post<{ Params: ChannelParams; Body: SubscriptionBody & { subscriptionId: string } }>(
    '/subscriptions/1/subscription/:channel',
    {
      schema: {
        tags,
        summary: 'Create subscription',
        params: channelParamsSchema,
        body: createBodySchema,
        response: { 201: idOnlyResponseSchema },
      },
    },
    async (request, reply) => {
      const { accountId } = request;
      const { channel } = request.params;
      const subscription = buildSubscription(request.body, {
        accountId,
        subscriptionId: request.body.subscriptionId,
        channel,
        now: clock.now(),
        others: await store.subscriptions.list(accountId),
      });
      if ((await store.subscriptions.create(subscription)) === 'duplicate') {
        throw badRequest([{ property: 'subscriptionId', violation: 'a subscription with this id already exists' }]);
      }
      matcher.invalidate(accountId);
      return reply.code(201).header('Location', locationOf(channel, subscription.subscriptionId)).send(idOnlyWire(subscription));
    },
  );

  app.get<{ Params: ChannelParams; Querystring: ListQuery }>(
    '/subscriptions/1/subscription/:channel',
    {
      schema: {
        tags,
        summary: 'List subscriptions, newest first',
        params: channelParamsSchema,
        querystring: listQuerySchema,
        response: { 200: pageResponseSchema },
      },
    },
    async (request) => {
      const { page, size } = request.query;
      const all = await store.subscriptions.list(request.accountId, request.params.channel);
      const matching = all.filter((s) => matchesFilters(s, request.query)).reverse();
      return {
        results: matching.slice(page * size, (page + 1) * size).map(subscriptionWire),
        paging: { page, size, totalPages: Math.ceil(matching.length / size), totalResults: matching.length },
      };
    },
  );

  app.get<{ Params: SubscriptionParams }>(
    '/subscriptions/1/subscription/:channel/:subscriptionId',
    {
      schema: {
        tags,
        summary: 'Get subscription',
        params: subscriptionParamsSchema,
        response: { 200: subscriptionResponseSchema },
      },
    },
    async (request) => subscriptionWire(await existing(request.accountId, request.params)),
  );

  app.put<{ Params: SubscriptionParams; Body: SubscriptionBody }>(
    '/subscriptions/1/subscription/:channel/:subscriptionId',
    {
      schema: {
        tags,
        summary: 'Update subscription',
        description: 'Replaces name, events, criteria and resources. `profile` may reference a profile by id or define a new one inline; omitted, the current profile stays.',
        params: subscriptionParamsSchema,
        body: updateBodySchema,
        response: { 200: idOnlyResponseSchema },
      },
    },
    async (request) => {
      const { accountId, params } = request;
      const current = await existing(accountId, params);
      const all = await store.subscriptions.list(accountId);
      const updated = buildSubscription(request.body, {
        accountId,
        subscriptionId: current.subscriptionId,
        channel: current.channel,
        now: clock.now(),
        others: all.filter((s) => s.subscriptionId !== current.subscriptionId),
        current,
      });
      if (!(await store.subscriptions.update(updated))) throw notFound();
      matcher.invalidate(accountId);
      return idOnlyWire(updated);
    },
  );

  app.delete<{ Params: SubscriptionParams }>(
    '/subscriptions/1/subscription/:channel/:subscriptionId',
    {
      schema: {
        tags,
        summary: 'Delete subscription',
        params: subscriptionParamsSchema,
        response: { 200: idOnlyResponseSchema },
      },
    },
    async (request) => {
      const { accountId, params } = request;
      const current = await existing(accountId, params);
      if (!(await store.subscriptions.delete(accountId, current.subscriptionId))) throw notFound();
      matcher.invalidate(accountId);
      return idOnlyWire(current);
    },
  );
}
