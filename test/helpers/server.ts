import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateApiKey } from '../../src/core/auth/api-keys.js';
import type { ManualClock } from '../../src/core/clock.js';
import { randomHex } from '../../src/core/ids.js';
import { dropSchemas } from './drop-schemas.js';
import { loadConfig } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import { startServer } from '../../src/server.js';

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  json<T = any>(): T;
}

export interface TestServer {
  url: string;
  apiKey: string;
  ctx: AppContext;
  /** The environment the server was started with; pass it again to restart on the same store. */
  env: Record<string, string>;
  request(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; headers?: Record<string, string>; key?: string | null },
  ): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  clock?: ManualClock;
  /** Keep the data directory on close (for restart tests). */
  keepData?: boolean;
  /** A built console to serve at /console instead of dist/console. */
  consoleDir?: string;
}

/** Which store the HTTP suites run on: PostgreSQL in the second CI pass, SQLite otherwise. */
export const testStoreKind = (): 'postgres' | 'sqlite' =>
  process.env.SWITCHBOARD_TEST_STORE === 'postgres' && process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

export async function testEnv(overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    DATA_DIR: overrides.DATA_DIR ?? (await mkdtemp(path.join(os.tmpdir(), 'switchboard-test-'))),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SWITCHBOARD_API_KEY: generateApiKey(),
    SWITCHBOARD_SANDBOX_LATENCY_MS: '0',
    SWITCHBOARD_WEBHOOK_RETRY_MS: '1000',
  };
  if (testStoreKind() === 'postgres') {
    env.DATABASE_URL = process.env.TEST_DATABASE_URL!;
    env.DATABASE_SCHEMA = `test_${randomHex(6)}`;
  }
  return { ...env, ...overrides };
}

/**
 * Removes what a testEnv() left: its data directory, a second node's beside it (`DATA_DIR-two`, as
 * the multi-node suites name it) and its PostgreSQL schema. For suites that start their own
 * processes on a testEnv(), and for startTestServer().close().
 */
export async function removeTestEnv(env: Record<string, string>): Promise<void> {
  await rm(env.DATA_DIR!, { recursive: true, force: true });
  await rm(`${env.DATA_DIR}-two`, { recursive: true, force: true });
  if (env.DATABASE_SCHEMA !== undefined) await dropSchemas(env.DATABASE_URL!, [env.DATABASE_SCHEMA]);
}

/** A real server on a random port with the sandbox at zero latency and a fresh store. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const env = await testEnv(options.env);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      config: loadConfig(env),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.consoleDir === undefined ? {} : { consoleDir: options.consoleDir }),
    });
  } catch (error) {
    // A server that refuses to start (the tests of bad configuration) leaves nothing behind either;
    // a data directory or schema the caller passed in is the caller's. Best effort: the refusal is
    // what the caller hears, even when the database that caused it cannot drop the schema.
    if (options.env?.DATA_DIR === undefined) await rm(env.DATA_DIR!, { recursive: true, force: true });
    if (env.DATABASE_SCHEMA !== undefined && options.env?.DATABASE_SCHEMA === undefined) {
      await dropSchemas(env.DATABASE_URL!, [env.DATABASE_SCHEMA]).catch(() => undefined);
    }
    throw error;
  }
  const apiKey = env.SWITCHBOARD_API_KEY!;
  return {
    url: server.url,
    apiKey,
    ctx: server.ctx,
    env,
    async request(method, requestPath, requestOptions = {}) {
      const headers: Record<string, string> = { accept: 'application/json', ...requestOptions.headers };
      const key = requestOptions.key === undefined ? apiKey : requestOptions.key;
      if (key !== null) headers.authorization ??= `App ${key}`;
      let body: string | undefined = requestOptions.rawBody;
      if (requestOptions.body !== undefined) {
        body = JSON.stringify(requestOptions.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(server.url + requestPath, { method, headers, body });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        text,
        json: () => JSON.parse(text),
      };
    },
    async close() {
      await server.close();
      if (!options.keepData) await removeTestEnv(env);
    },
  };
}

/** Polls `check` until it returns a value other than undefined, within `timeoutMs` of real time. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
