import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

const DESCRIPTION = `Switchboard's HTTP API. The SMS, RCS, Calls (voice), 2FA and Subscriptions endpoints are
wire-compatible with Infobip's public API: point an Infobip SDK at this server's base URL. Endpoints under
/sandbox/1 (the sandbox carrier network: virtual phones, inbound traffic, call timelines) and
/switchboard/1 are Switchboard's own.

Authentication: send \`Authorization: App <api key>\` with every request except /health, /metrics,
/openapi.json, /docs and the console's page (/console).`;

/**
 * The OpenAPI 3.1 document is generated from the same route schemas that validate requests, so it
 * cannot drift from what the server accepts. Must be registered before the routes.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  // Fastify's documentation marks every request body required; routes whose body may be left out say so.
  const optionalBodies: Array<{ method: string; path: string }> = [];
  app.addHook('onRoute', (route) => {
    if (!route.config?.optionalBody) return;
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    for (const method of [route.method].flat()) optionalBodies.push({ method: method.toLowerCase(), path });
  });
  await app.register(swagger, {
    transformObject: (document) => {
      const openapiObject = 'openapiObject' in document ? document.openapiObject : document.swaggerObject;
      const paths = (openapiObject as { paths?: Record<string, Record<string, { requestBody?: { required?: boolean } }>> }).paths ?? {};
      for (const { method, path } of optionalBodies) {
        const body = paths[path]?.[method]?.requestBody;
        if (body) body.required = false;
      }
      return openapiObject;
    },
    // Shared schemas keep their $id as the component name (ApiError, ApiException) instead of def-N.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Switchboard API', version, description: DESCRIPTION },
      components: {
        securitySchemes: {
          APIKeyHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'API key authorization: `App <api key>`.',
          },
        },
      },
      security: [{ APIKeyHeader: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
