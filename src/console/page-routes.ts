import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '../core/errors/error-handling.js';

/** Where `npm run build` puts the console: dist/console, beside the compiled server (dist/src). */
export const BUILT_CONSOLE_DIR = fileURLToPath(new URL('../../console/', import.meta.url));

const NOT_BUILT =
  'The console is not built here. Run `npm run build` (it bundles the console into dist/console), then restart the server.\n';

/** Vite names what it puts in assets/ by content hash: a changed file is a new URL. */
const isHashedAsset = (file: string, root: string): boolean => path.relative(root, file).split(path.sep)[0] === 'assets';

/**
 * The page holds an API key: it runs only its own scripts and styles, talks only to this server,
 * shows images from the web (RCS media) and audio it fetched itself, and is never framed.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: http: data: blob:; media-src 'self' blob:; " +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

const acceptsHtml = (request: FastifyRequest): boolean => /\btext\/html\b/i.test(request.headers.accept ?? '');

/** The path of the URL asked for, as sent (the router would not tell `/console` from `/console/`). */
const pathOf = (request: FastifyRequest): string => request.raw.url?.split('?', 1)[0] ?? '';

/**
 * The sandbox console's page, served by the server itself: `/console/` is the built index.html
 * (never cached, so a new build shows at once), `/console/assets/*` its hashed files (cached for
 * a year), any other path under /console/ the page too (its own routes). No API key: the page asks
 * for one and sends it with each API call. `GET /` from a browser leads there. Hidden from the
 * OpenAPI document.
 */
export async function registerConsolePage(app: FastifyInstance, root = BUILT_CONSOLE_DIR): Promise<void> {
  app.get('/', { config: { public: true }, schema: { hide: true } }, (request, reply) =>
    acceptsHtml(request) ? reply.redirect('/console/', 302) : sendProblem(request, reply, 404),
  );

  await app.register(
    async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.config = { ...route.config, public: true };
      });
      scope.addHook('onSend', (_request, reply, payload, done) => {
        reply.headers(PAGE_HEADERS);
        done(null, payload);
      });
      if (!existsSync(path.join(root, 'index.html'))) {
        const notBuilt = (_request: FastifyRequest, reply: FastifyReply): FastifyReply => reply.code(404).type('text/plain; charset=utf-8').send(NOT_BUILT);
        scope.get('/', { schema: { hide: true } }, notBuilt);
        scope.get('/*', { schema: { hide: true } }, notBuilt);
        return;
      }
      await scope.register(fastifyStatic, {
        root,
        prefix: '/',
        wildcard: true,
        index: false,
        cacheControl: false,
        etag: true,
        lastModified: true,
        setHeaders: (reply, file) => {
          reply.header('cache-control', isHashedAsset(file, root) ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
      const page = (request: FastifyRequest, reply: FastifyReply): FastifyReply =>
        pathOf(request) === '/console'
          ? reply.redirect(`/console/${request.raw.url?.slice('/console'.length) ?? ''}`, 301)
          : reply.header('cache-control', 'no-cache').sendFile('index.html');
      scope.get('/', { schema: { hide: true } }, page);
      // A path of the page's own (a deep link) is the page; a missing asset is a plain 404.
      scope.setNotFoundHandler((request, reply) =>
        pathOf(request).startsWith('/console/assets/') ? reply.code(404).type('text/plain; charset=utf-8').send('Not found\n') : page(request, reply),
      );
    },
    { prefix: '/console' },
  );
}
