import type { FastifyInstance } from 'fastify';
import { sendProblem } from '../errors/error-handling.js';
import { parseAuthorization } from './api-keys.js';
import type { Authenticator, Principal } from './authenticator.js';

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
  // Callback style, not async: a key answered from the cache, as nearly every request's is, then
  // costs no promise and no extra turn of the microtask queue.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config?.public || request.is404 || isDocumentation(request.url)) return done();
    const key = parseAuthorization(request.headers.authorization);
    if (key === undefined) return void sendProblem(request, reply, 401);
    const admit = (principal: Principal | null | undefined): void => {
      if (!principal) return void sendProblem(request, reply, 401);
      request.accountId = principal.accountId;
      done();
    };
    const cached = authenticator.cached(key);
    if (cached !== undefined) return admit(cached);
    authenticator.authenticate(key).then(admit, done);
  });
}
