import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** Liveness/readiness and Prometheus metrics; no API key needed. */
export function registerOpsRoutes(app: FastifyInstance, deps: { metrics: Metrics; collect: () => Promise<string>; isReady: () => boolean }): void {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['Operations'],
        summary: 'Readiness: 200 once the server accepts traffic, 503 while starting or stopping',
        response: {
          200: { type: 'object', properties: { status: { type: 'string' } } },
          503: { type: 'object', properties: { status: { type: 'string' } } },
        },
      },
    },
    async (_request, reply) => (deps.isReady() ? { status: 'ok' } : reply.code(503).send({ status: 'unavailable' })),
  );
  app.get(
    '/metrics',
    { config: { public: true }, schema: { tags: ['Operations'], summary: 'Prometheus metrics' } },
    async (_request, reply) => {
      reply.type(deps.metrics.registry.contentType);
      return deps.collect();
    },
  );
}
