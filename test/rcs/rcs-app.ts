import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { installErrorHandling } from '../../src/core/errors/error-handling.js';
import { installValidation } from '../../src/core/validation.js';
import { readRcsSendRequest } from '../../src/rcs/read/read-send.js';
import { rcsSendBodySchema, type RcsSendBody } from '../../src/rcs/schemas/send.js';
import { NEW_ENVELOPE_KEYS } from '../sms/send-fixtures.js';

/**
 * A Fastify app with the server's own validation and error handling and one route at the real RCS
 * send path (so errors come in the new envelope), answering what the reader made of the body.
 */

export const NOW = Date.UTC(2025, 2, 4, 10, 0, 0);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface RcsApp {
  send(body: unknown): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  body: any;
}

export interface Violation {
  property: string;
  violation: string;
}

export async function startRcsApp(now = NOW): Promise<RcsApp> {
  const app: FastifyInstance = Fastify();
  installErrorHandling(app);
  installValidation(app);
  app.post('/rcs/2/messages', { schema: { body: rcsSendBodySchema } }, async (request) => readRcsSendRequest(request.body as RcsSendBody, now));
  await app.ready();
  return {
    async send(body) {
      const response = await app.inject({ method: 'POST', url: '/rcs/2/messages', payload: body as object });
      return { status: response.statusCode, body: response.json() };
    },
    close: () => app.close(),
  };
}

/** The violations of a 400 in the new envelope, after checking it is one. */
export function violationsOf(answer: Answer): Violation[] {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.deepEqual(Object.keys(answer.body), NEW_ENVELOPE_KEYS);
  assert.equal(answer.body.errorCode, 'E400');
  return answer.body.violations;
}

/** Asserts a 400 with exactly these violations (in any order). */
export function assertViolations(answer: Answer, expected: Violation[]): void {
  const key = (v: Violation) => `${v.property} ${v.violation}`;
  assert.deepEqual(violationsOf(answer).map(key).sort(), expected.map(key).sort());
}

export function assertAccepted(answer: Answer): void {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A copy of `body` with the dotted path `at` (array indexes as numbers, `messages.0.content.text`)
 * set to `value`; undefined removes it. Missing objects on the way are created.
 */
export function withField<T>(body: T, at: string, value: Json | undefined): T {
  const copy = structuredClone(body) as unknown as Record<string, Json>;
  const keys = at.split('.');
  let node = copy;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, Json>;
  }
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy as unknown as T;
}
