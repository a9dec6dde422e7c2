/**
 * `npm run bench:smpp`: HTTP → Switchboard → SMPP → SMSC simulator → receipt → delivery webhook, end
 * to end, with every message durably stored. Starts the simulator (`switchboard smsc-sim`) and the
 * server as child processes, sends single-destination SMS as fast as they are accepted, and prints
 * accepted/s, submit_sm/s seen by the SMSC and delivery webhooks/s, with latencies. `--postgres URL`
 * (or BENCH_DATABASE_URL) runs the server on PostgreSQL; `--parts N` sends long messages of N parts.
 */
import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateApiKey } from '../src/core/auth/api-keys.js';
import { randomHex } from '../src/core/ids.js';
import { SERVER_NODE_FLAGS } from '../src/node-flags.js';
import { cpuSeconds, dropSchema, freePort, peakRssMb, serverEnv, startChild } from './processes.js';
import { startWebhookReceiver } from './webhook-receiver.js';

const { values } = parseArgs({
  options: {
    postgres: { type: 'string' },
    messages: { type: 'string', default: '60000' },
    connections: { type: 'string', default: '50' },
    binds: { type: 'string', default: '2' },
    window: { type: 'string', default: '200' },
    parts: { type: 'string', default: '1' },
  },
});
const total = Number(values.messages);
const parts = Number(values.parts);
if (!Number.isInteger(parts) || parts < 1 || parts > 25) throw new Error('--parts must be an integer from 1 to 25');
// 153 GSM characters fill a part of a long message; one part holds 160.
const text = parts === 1 ? 'Your verification code is 123456' : 'x'.repeat(153 * parts);
const postgresUrl = values.postgres ?? process.env.BENCH_DATABASE_URL;
const distRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const cli = path.join(distRoot, 'src', 'cli.js');
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function simulatorStats(controlUrl: string): Promise<{ submits: number; receiptsSent: number }> {
  const response = await fetch(`${controlUrl}/stats`);
  return (await response.json()) as { submits: number; receiptsSent: number };
}

async function main(): Promise<void> {
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  print(`Switchboard SMPP benchmark — ${os.cpus().length} cores, Node ${process.version}, store: ${postgresUrl ? 'PostgreSQL' : 'SQLite'}, ${fmt(total)} messages of ${parts} part${parts === 1 ? '' : 's'}`);

  const smppPort = await freePort();
  const controlPort = await freePort();
  const controlUrl = `http://127.0.0.1:${controlPort}`;
  const simulator = await startChild(
    cli,
    ['smsc-sim', '--port', String(smppPort), '--control-port', String(controlPort), '--receipt-delay-ms', '0', '--no-keep-messages'],
    {},
    [],
    controlUrl,
    '/stats',
  );

  // Webhook receiver: end-to-end latency is measured from the moment the API answered 200.
  const acceptedAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let lastWebhook = 0;
  const receiver = await startWebhookReceiver((results, now) => {
    for (const result of results) {
      const at = acceptedAt.get(result.messageId);
      if (at !== undefined) latencies.push(now - at);
    }
    received += results.length;
    lastWebhook = now;
  });
  const webhookUrl = receiver.url;

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-bench-smpp-'));
  const schema = `bench_${randomHex(4)}`;
  const apiKey = generateApiKey();
  const port = await freePort();
  const env = {
    ...serverEnv({ dataDir, port, apiKey, postgresUrl, schema }),
    SWITCHBOARD_SMPP_URL: `smpp://bench:bench@127.0.0.1:${smppPort}?binds=${values.binds}&window=${values.window}`,
  };
  const server = await startChild(cli, ['serve'], env, [...SERVER_NODE_FLAGS], `http://127.0.0.1:${port}`, '/health');

  const body = JSON.stringify({
    messages: [{ sender: 'Bench', destinations: [{ to: '41793026727' }], content: { text }, webhooks: { delivery: { url: webhookUrl } } }],
  });
  const before = await simulatorStats(controlUrl);
  const cpuBefore = cpuSeconds(server.process.pid!);
  const started = performance.now();
  let lastAcceptedAt = started;
  const submitsBefore = before.submits;
  const result = await autocannon({
    url: `${server.url}/sms/3/messages`,
    connections: Number(values.connections),
    amount: total,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `App ${apiKey}` },
        body,
        onResponse: (status: number, responseBody: string) => {
          if (status !== 200) return;
          const messageId = (JSON.parse(responseBody) as { messages: Array<{ messageId: string }> }).messages[0]!.messageId;
          lastAcceptedAt = performance.now();
          acceptedAt.set(messageId, lastAcceptedAt);
        },
      },
    ],
  });
  // The last answer, not the run's end: autocannon notices that `amount` were answered only at its next one-second tick.
  const acceptSeconds = (lastAcceptedAt - started) / 1000;
  const accepted = result['2xx'];
  const { complete } = await receiver.done(accepted, 180_000);
  const cpuUsed = cpuSeconds(server.process.pid!) - cpuBefore;
  const after = await simulatorStats(controlUrl);
  const endToEndSeconds = (lastWebhook - started) / 1000;
  const submits = after.submits - submitsBefore;
  latencies.sort((a, b) => a - b);

  print(`accepted over HTTP:        ${fmt(accepted / acceptSeconds)} SMS/s (HTTP p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors + result.non2xx})`);
  if (!complete) {
    print(`delivery webhooks:         incomplete: ${fmt(received)} of ${fmt(accepted)} reports within 180 s; no end-to-end rate`);
  } else {
    print(`submit_sm seen by the SMSC: ${fmt(submits / endToEndSeconds)} /s (${fmt(submits)} submits: parts/s)`);
    print(`delivery webhooks:         ${fmt(received / endToEndSeconds)} reports/s end to end (${fmt(received)} of ${fmt(accepted)} in ${endToEndSeconds.toFixed(1)} s)`);
    print(`accept → webhook latency:  p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms`);
  }
  print(`server CPU:                ${cpuUsed.toFixed(1)} CPU-s, ${((cpuUsed / Math.max(1, received)) * 1000).toFixed(2)} CPU-s per 1 000 messages`);
  print(`peak RSS of the server:    ${peakRssMb(server.process.pid!).toFixed(0)} MB`);

  receiver.close();
  await server.stop();
  await simulator.stop();
  await rm(dataDir, { recursive: true, force: true });
  if (postgresUrl) await dropSchema(postgresUrl, schema);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
