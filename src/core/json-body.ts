import type { FastifyInstance } from 'fastify';
import { type ApiProblem, violation } from './errors/api-problem.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body may be left out, even with a JSON content type: an empty one reads as `{}`. */
    optionalBody?: boolean;
  }
}

/**
 * How deeply a request body may nest objects and arrays. No API body nests a tenth as deep; the
 * bound exists so that nothing that walks request data (the text check, schema validation, our
 * own readers) can be made to recurse without limit.
 */
export const MAX_JSON_DEPTH = 64;

/** The 400 of a body nested past MAX_JSON_DEPTH. */
export const tooDeeplyNested = (): ApiProblem =>
  violation('body', `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether JSON text nests objects and arrays deeper than `limit`; one pass over the text, no parse. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * JSON bodies are parsed by Fastify's own parser (which refuses `__proto__` and `constructor`
 * poisoning), after a check of their nesting that refuses deep bodies before anything walks them.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = raw as string;
    if (body === '' && request.routeOptions.config?.optionalBody) {
      done(null, {});
      return;
    }
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
      done(tooDeeplyNested(), undefined);
      return;
    }
    parse(request, body, done);
  });
}
