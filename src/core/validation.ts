import { Ajv, type Options, type ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { violation } from './errors/api-problem.js';
import { installJsonBodyParser, tooDeeplyNested } from './json-body.js';
import { findUnstorableText } from './text-safety.js';

const common: Options = { useDefaults: true, strict: false, removeAdditional: false };

/**
 * Every violation of a request is reported (as Infobip does) only while the request holds at most
 * this many values: collecting and rendering all errors of a body of a million wrong items would
 * cost seconds of CPU and a response of tens of megabytes. A larger invalid body gets its first.
 */
export const ALL_ERRORS_UP_TO_VALUES = 10_000;

/** Whether `data` holds at most `limit` values (objects, arrays and scalars alike); stops counting past it. */
function holdsAtMost(data: unknown, limit: number): boolean {
  const pending: unknown[] = [data];
  let count = 0;
  while (pending.length > 0) {
    const value = pending.pop();
    if (++count > limit) return false;
    if (typeof value !== 'object' || value === null) continue;
    for (const child of Array.isArray(value) ? value : Object.values(value)) pending.push(child);
  }
  return true;
}

/**
 * A validator that stops at the first error (a valid request, the usual case, costs the same either
 * way), then, for a request of bounded size, finds all its errors to report them together.
 */
function firstThenAll(first: ValidateFunction, all: ValidateFunction): ValidateFunction {
  const validate = ((data: unknown) => {
    if (first(data)) return true;
    validate.errors = holdsAtMost(data, ALL_ERRORS_UP_TO_VALUES) && !all(data) ? all.errors : first.errors;
    return false;
  }) as ValidateFunction;
  return validate;
}

/**
 * Bodies are validated without type coercion (a JSON string is not silently a number), while query
 * strings and path parameters are coerced, arrays included, so `?bulkId=a&bulkId=b` and `?bulkId=a`
 * both reach the route as arrays when the schema says array.
 */
export function installValidation(app: FastifyInstance): void {
  installJsonBodyParser(app);
  const compilers = (options: Options) => {
    const first = new Ajv({ ...common, ...options, allErrors: false });
    const all = new Ajv({ ...common, ...options, allErrors: true });
    // OpenAPI's `example` is not a JSON Schema keyword; route schemas may carry it for the docs.
    for (const ajv of [first, all]) ajv.addKeyword({ keyword: 'example' });
    return (schema: object) => firstThenAll(first.compile(schema), all.compile(schema));
  };
  const bodies = compilers({ coerceTypes: false });
  const parameters = compilers({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodies(schema) : parameters(schema)));
  // Callback style: an async hook costs every request a promise and a microtask turn.
  app.addHook('preValidation', (request, _reply, done) => {
    for (const part of [request.body, request.query, request.params]) {
      const found = findUnstorableText(part);
      if (found?.kind === 'unstorable') return done(violation(found.property, 'must not contain NUL characters or unpaired surrogates'));
      if (found) return done(tooDeeplyNested());
    }
    done();
  });
}
