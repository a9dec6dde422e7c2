/**
 * `npm run bench:voice`: the speech engine's speed (cold, warm, cached), calls created per second
 * over HTTP, and a soak of concurrent sandbox calls that each ring, are answered, say a sentence and
 * hang up, driven by their own event webhooks, with the lag of those events (from the event's
 * timestamp to its arrival), the server's CPU and its peak RSS. `--postgres URL` (or
 * BENCH_DATABASE_URL) runs the server on PostgreSQL.
 */
import autocannon from 'autocannon';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { type BenchServer, cpuSeconds, peakRssMb, startBenchServer } from './processes.js';
import { measureSpeech } from './speech.js';

const { values } = parseArgs({
  options: {
    postgres: { type: 'string' },
    duration: { type: 'string', default: '8' },
    calls: { type: 'string', default: '1000' },
    /** Calls the soak creates per second: a steady arrival, so that the client's own bursts do not slow its webhook receiver. */
    'create-rate': { type: 'string', default: '400' },
    /** `speech`, `create` or `soak` runs one part only. */
    only: { type: 'string' },
    /** Extra arguments for the server's node process, e.g. --cpu-prof. */
    'node-args': { type: 'string', default: '' },
  },
});
const postgresUrl = values.postgres ?? process.env.BENCH_DATABASE_URL;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const print = (line: string): void => void process.stdout.write(`${line}\n`);
const CONFIGURATION = 'bench';

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function startSwitchboard(latencyMs: number): Promise<BenchServer> {
  const server = await startBenchServer({ name: 'voice', latencyMs, postgresUrl, nodeArgs: values['node-args'] });
  const created = await server.call('POST', '/calls/1/configurations', { id: CONFIGURATION });
  if (created.status !== 201) throw new Error(`calls configuration: ${created.status}`);
  return server;
}

const callBody = (phoneNumber: string): string =>
  JSON.stringify({ endpoint: { type: 'PHONE', phoneNumber }, from: '41790000000', callsConfigurationId: CONFIGURATION });

async function createRate(): Promise<void> {
  const server = await startSwitchboard(1500);
  const options = {
    url: `${server.url}/calls/1/calls`,
    method: 'POST' as const,
    connections: 50,
    headers: { 'content-type': 'application/json', authorization: `App ${server.apiKey}` },
    body: callBody('41793026727'),
  };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: Number(values.duration) });
  const created = result['2xx'] / result.duration;
  print(`calls created over HTTP:         ${fmt(created)} calls/s (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors + result.non2xx})`);
  print(`peak RSS of the server:          ${peakRssMb(server.process.pid!).toFixed(0)} MB (every call created stays live: it is never hung up)`);
  await server.stop();
  await server.cleanup();
}

/** One event as it arrives: the call it belongs to, its type, and how late it came. */
type Arrival = (event: { type: string; callId: string; timestamp: string }, lagMs: number) => void;

async function eventReceiver(onEvent: Arrival): Promise<{ url: string; close(): void }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; callId: string; timestamp: string };
      onEvent(event, Date.now() - Date.parse(event.timestamp.replace('+0000', 'Z')));
      response.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`, close: () => server.close() };
}

async function soak(total: number): Promise<void> {
  const server = await startSwitchboard(1500);
  const lags: number[] = [];
  const finished = new Set<string>();
  let events = 0;
  let actionFailures = 0;
  let allDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allDone = resolve));
  const act = (callId: string, action: string, body: unknown): void => {
    void server.call('POST', `/calls/1/calls/${callId}/${action}`, body).then(
      (answer) => void (answer.status === 200 || actionFailures++),
      () => void actionFailures++,
    );
  };
  const startedAt = new Map<string, number>();
  const answerLateness: number[] = [];
  const receiver = await eventReceiver((event, lag) => {
    events++;
    lags.push(lag);
    const at = Date.parse(event.timestamp.replace('+0000', 'Z'));
    if (event.type === 'CALL_STARTED') startedAt.set(event.callId, at);
    if (event.type === 'CALL_ESTABLISHED' && startedAt.has(event.callId)) answerLateness.push(at - startedAt.get(event.callId)! - 1500);
    if (event.type === 'CALL_ESTABLISHED') act(event.callId, 'say', { text: 'Your verification code is 4 7 1 9. I repeat, 4 7 1 9.', language: 'en' });
    else if (event.type === 'SAY_FINISHED') act(event.callId, 'hangup', {});
    else if (event.type === 'CALL_FINISHED' || event.type === 'CALL_FAILED') {
      finished.add(event.callId);
      if (finished.size >= total) allDone();
    }
  });
  const subscribed = await server.call('POST', '/subscriptions/1/subscription/VOICE_VIDEO', {
    subscriptionId: 'bench',
    events: ['CALL_STARTED', 'CALL_RINGING', 'CALL_ESTABLISHED', 'SAY_FINISHED', 'CALL_FINISHED', 'CALL_FAILED'],
    profile: { webhook: { notifyUrl: receiver.url } },
  });
  if (subscribed.status !== 201) throw new Error(`subscription: ${subscribed.status}`);

  const cpuBefore = cpuSeconds(server.process.pid!);
  const started = performance.now();
  const perSecond = Number(values['create-rate']);
  let createFailures = 0;
  const creations: Array<Promise<void>> = [];
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const number = `4179${String(3_000_000 + n).padStart(7, '0')}`;
    creations.push(server.call('POST', '/calls/1/calls', JSON.parse(callBody(number))).then((answer) => void (answer.status === 201 || createFailures++)));
  }
  await Promise.all(creations);
  const createdIn = (performance.now() - started) / 1000;
  const complete = await Promise.race([done.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 180_000))]);
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(server.process.pid!) - cpuBefore;
  lags.sort((a, b) => a - b);
  answerLateness.sort((a, b) => a - b);

  print(`soak: ${fmt(total)} sandbox calls at real-time pace (ring 0.3 s, answer at 1.5 s, say ~5 s, hang up), created at ${fmt(perSecond)}/s in ${createdIn.toFixed(1)} s`);
  if (!complete) print(`  incomplete: ${fmt(finished.size)} of ${fmt(total)} calls ended within 180 s`);
  else print(`  every call ended: ${fmt(events)} events delivered in ${seconds.toFixed(1)} s (expected ${fmt(total * 5)})`);
  print(`  event lag (timestamp → webhook received): p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${percentile(lags, 99).toFixed(0)} ms, max ${lags.at(-1)?.toFixed(0)} ms`);
  print(`  the sandbox's pace: answers came p50 ${percentile(answerLateness, 50).toFixed(0)} ms, p99 ${percentile(answerLateness, 99).toFixed(0)} ms after their 1.5 s`);
  print(`  failures: ${createFailures} creates, ${actionFailures} actions`);
  print(`  server CPU: ${cpu.toFixed(1)} CPU-s (${((cpu / total) * 1000).toFixed(1)} CPU-ms per call); peak RSS ${peakRssMb(server.process.pid!).toFixed(0)} MB`);
  receiver.close();
  await server.stop();
  await server.cleanup();
}

async function main(): Promise<void> {
  print(`Switchboard voice benchmark — ${os.cpus().length} cores, Node ${process.version}, store: ${postgresUrl ? 'PostgreSQL' : 'SQLite'}`);
  if (!values.only || values.only === 'speech') await measureSpeech(print);
  if (!values.only || values.only === 'create') await createRate();
  if (!values.only || values.only === 'soak') await soak(Number(values.calls));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
