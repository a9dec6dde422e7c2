import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { notFound, violation } from '../../core/errors/api-problem.js';
import { randomHex } from '../../core/ids.js';
import { dropEmptyQueryValues } from '../../core/query-params.js';
import type { CallsConfiguration } from '../../core/store/types.js';
import type { PageQuery } from '../schemas/common.js';
import {
  configurationParamsSchema,
  configurationSchema,
  configurationsPageSchema,
  configurationsQuerySchema,
  createConfigurationBodySchema,
  updateConfigurationBodySchema,
  type ConfigurationParams,
  type CreateConfigurationBody,
  type UpdateConfigurationBody,
} from '../schemas/configurations.js';
import { paging, TAGS } from './route-common.js';

const wire = (c: CallsConfiguration): { id: string; name?: string } => (c.name === undefined ? { id: c.id } : { id: c.id, name: c.name });

/** Calls configurations: the containers a call's events are subscribed through. */
export function registerCallsConfigurationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { store } = ctx;

  app.post<{ Body: CreateConfigurationBody }>(
    '/calls/1/configurations',
    { schema: { tags: TAGS, summary: 'Create calls configuration', body: createConfigurationBodySchema, response: { 201: configurationSchema } } },
    async (request, reply) => {
      // Infobip's generated ids are 24 hex characters.
      const id = request.body.id ?? randomHex(12);
      const configuration: CallsConfiguration = { accountId: request.accountId, id, createdAt: ctx.clock.now() };
      if (request.body.name !== undefined) configuration.name = request.body.name;
      // UNCONFIRMED: Infobip does not say what a duplicate id answers; a 400 naming the id.
      if ((await store.callsConfigurations.create(configuration)) === 'duplicate') throw violation('id', 'a calls configuration with this id exists');
      return reply.code(201).send(wire(configuration));
    },
  );

  app.get<{ Querystring: PageQuery }>(
    '/calls/1/configurations',
    {
      preValidation: dropEmptyQueryValues,
      schema: { tags: TAGS, summary: 'Get calls configurations', querystring: configurationsQuerySchema, response: { 200: configurationsPageSchema } },
    },
    async (request) => {
      const { page, size } = request.query;
      const { results, total } = await store.callsConfigurations.list(request.accountId, page, size);
      return { results: results.map(wire), paging: paging(page, size, total) };
    },
  );

  app.get<{ Params: ConfigurationParams }>(
    '/calls/1/configurations/:callsConfigurationId',
    { schema: { tags: TAGS, summary: 'Get calls configuration', params: configurationParamsSchema, response: { 200: configurationSchema } } },
    async (request) => {
      const found = await store.callsConfigurations.get(request.accountId, request.params.callsConfigurationId);
      if (!found) throw notFound();
      return wire(found);
    },
  );

  app.put<{ Params: ConfigurationParams; Body: UpdateConfigurationBody }>(
    '/calls/1/configurations/:callsConfigurationId',
    {
      schema: { tags: TAGS, summary: 'Update calls configuration', params: configurationParamsSchema, body: updateConfigurationBodySchema, response: { 200: configurationSchema } },
    },
    async (request) => {
      const updated = await store.callsConfigurations.update(request.accountId, request.params.callsConfigurationId, request.body.name);
      if (!updated) throw notFound();
      return wire(updated);
    },
  );

  app.delete<{ Params: ConfigurationParams }>(
    '/calls/1/configurations/:callsConfigurationId',
    { schema: { tags: TAGS, summary: 'Delete calls configuration', params: configurationParamsSchema, response: { 200: configurationSchema } } },
    async (request) => {
      const deleted = await store.callsConfigurations.delete(request.accountId, request.params.callsConfigurationId);
      if (!deleted) throw notFound();
      return wire(deleted);
    },
  );
}
