import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { generateApiKey } from '../src/core/auth/api-keys.js';
import { randomHex } from '../src/core/ids.js';
import { SERVER_NODE_FLAGS } from '../src/node-flags.js';

export interface Child {
  process: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts a node script and resolves once `ready(url)` answers; the script's output goes to stderr. */
export async function startChild(
  script: string,
  args: string[],
  env: Record<string, string>,
  nodeArgs: string[],
  url: string,
  readyPath: string,
): Promise<Child> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout?.on('data', () => undefined);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      const response = await fetch(url + readyPath, { method: readyPath === '/echo' ? 'POST' : 'GET', body: readyPath === '/echo' ? '{}' : undefined, headers: { 'content-type': 'application/json' } });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${script} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    process: child,
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** CPU time a process has used so far (user and system, all threads), in clock ticks, from /proc. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU seconds a process has used so far (Linux counts 100 ticks a second). */
export const cpuSeconds = (pid: number): number => cpuTicks(pid) / 100;

/**
 * Resolves true once the process has used under 2% of a core for a quarter of a second, or false
 * after `timeoutMs`: work it does after a load (WAL checkpoints, purges) must not run during the next.
 */
export async function untilIdle(pid: number, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let last = cpuTicks(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = cpuTicks(pid);
    // Ticks are hundredths of a second: 2% of 250 ms is half a tick, so idle means no tick at all.
    if (now - last === 0) return true;
    last = now;
  }
  return false;
}

/** Peak resident set size of a process, from the kernel's high-water mark. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}

/** The environment of a benchmarked server: a temporary store (or a fresh schema on PostgreSQL), quiet logs. */
export function serverEnv(options: { dataDir: string; port: number; apiKey: string; postgresUrl?: string | undefined; schema: string }): Record<string, string> {
  const env: Record<string, string> = {
    DATA_DIR: options.dataDir,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SWITCHBOARD_API_KEY: options.apiKey,
  };
  if (options.postgresUrl) {
    env.DATABASE_URL = options.postgresUrl;
    env.DATABASE_SCHEMA = options.schema;
  }
  return env;
}

/** Removes a benchmarked server's schema: each run writes hundreds of thousands of rows. */
export async function dropSchema(postgresUrl: string, schema: string): Promise<void> {
  const sql = postgres(postgresUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await sql.end();
  }
}

export interface BenchServer extends Child {
  apiKey: string;
  /** A JSON request under the server's API key. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
  /** Removes the store (BENCH_KEEP keeps a SQLite one to look at). */
  cleanup(): Promise<void>;
}

const cli = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'src', 'cli.js');

/**
 * Starts `switchboard serve` from dist as `npm start` runs it, on a temporary store (or a fresh
 * schema on PostgreSQL), with the sandbox at `latencyMs`; `nodeArgs` adds flags such as --cpu-prof.
 */
export async function startBenchServer(options: { name: string; latencyMs: number; postgresUrl?: string | undefined; nodeArgs?: string | undefined }): Promise<BenchServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `switchboard-bench-${options.name}-`));
  const apiKey = generateApiKey();
  const port = await freePort();
  const schema = `bench_${randomHex(4)}`;
  const { postgresUrl } = options;
  const env = { ...serverEnv({ dataDir, port, apiKey, postgresUrl, schema }), SWITCHBOARD_SANDBOX_LATENCY_MS: String(options.latencyMs) };
  const nodeArgs = [...SERVER_NODE_FLAGS, ...(options.nodeArgs ? options.nodeArgs.split(' ') : [])];
  const child = await startChild(cli, ['serve'], env, nodeArgs, `http://127.0.0.1:${port}`, '/health');
  const call = async (method: string, urlPath: string, body?: unknown) => {
    const response = await fetch(child.url + urlPath, {
      method,
      headers: { authorization: `App ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  };
  const cleanup = async (): Promise<void> => {
    if (process.env.BENCH_KEEP) return void process.stdout.write(`kept ${dataDir}\n`);
    await rm(dataDir, { recursive: true, force: true });
    if (postgresUrl) await dropSchema(postgresUrl, schema);
  };
  return { ...child, apiKey, call, cleanup };
}

/** The sum of a Prometheus counter's series whose labels include `labels`, from /metrics text. */
export function metricSum(text: string, name: string, labels = ''): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) && line.includes(labels)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}
