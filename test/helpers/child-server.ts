import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../src/node-flags.js';

const cli = path.resolve('dist/src/cli.js');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    server.on('error', reject);
  });
}

export interface ChildServer {
  process: ChildProcess;
  url: string;
  output(): string;
  /** SIGKILL: no shutdown code runs. */
  kill9(): Promise<void>;
  terminate(): Promise<number | null>;
}

/** Runs `switchboard serve` as a separate process, as a user would, and waits for /health. */
export async function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const port = env.PORT && env.PORT !== '0' ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, cli, 'serve'], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    url,
    output: () => output,
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    terminate: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

export type ChildApi = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any }>;

/** Requests to a child server with an API key: JSON in, JSON (or nothing) out. */
export function childApi(server: ChildServer, key: string): ChildApi {
  return async (method, path, body) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `App ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  };
}
