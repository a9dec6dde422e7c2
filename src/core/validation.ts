import { Ajv, type Options } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { violation } from './errors/api-problem.js';
import { unstorablePath } from './text-safety.js';

const common: Options = { allErrors: true, useDefaults: true, strict: false, removeAdditional: false };

/**
 * Bodies are validated without type coercion (a JSON string is not silently a number), while query
 * strings and path parameters are coerced, arrays included, so `?bulkId=a&bulkId=b` and `?bulkId=a`
 * both reach the route as arrays when the schema says array.
 */
export function installValidation(app: FastifyInstance): void {
  const bodies = new Ajv({ ...common, coerceTypes: false });
  const parameters = new Ajv({ ...common, coerceTypes: 'array' });
  // OpenAPI's `example` is not a JSON Schema keyword; route schemas may carry it for the docs.
  for (const ajv of [bodies, parameters]) ajv.addKeyword({ keyword: 'example' });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodies.compile(schema) : parameters.compile(schema),
  );
  // Callback style: an async hook costs every request a promise and a microtask turn.
  app.addHook('preValidation', (request, _reply, done) => {
    for (const part of [request.body, request.query, request.params]) {
      const path = unstorablePath(part);
      if (path !== undefined) return done(violation(path, 'must not contain NUL characters or unpaired surrogates'));
    }
    done();
  });
}
