import type { FastifyInstance } from 'fastify';
import { sendProblem } from '../errors/error-handling.js';
import { parseAuthorization } from './api-keys.js';
import type { Authenticator } from './authenticator.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller's account; every store call of a route is scoped to it. */
    accountId: string;
  }
  interface FastifyContextConfig {
    /** Route needs no API key (health, metrics, docs). */
    public?: boolean;
  }
}

/** The documentation UI's own assets are registered by its plugin, without our route config. */
const isDocumentation = (url: string): boolean => url === '/docs' || url.startsWith('/docs/');

export function installAuthentication(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('accountId', '');
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.public || request.is404 || isDocumentation(request.url)) return;
    const key = parseAuthorization(request.headers.authorization);
    const principal = key === undefined ? undefined : await authenticator.authenticate(key);
    if (!principal) return sendProblem(request, reply, 401);
    request.accountId = principal.accountId;
  });
}
