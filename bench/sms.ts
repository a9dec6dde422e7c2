/**
 * `npm run bench`: starts servers on temporary stores and prints, from one run, accepted SMS/s for
 * single-destination requests against a bare Fastify echo and accepted RCS/s for single-destination
 * cards beside them (in alternating rounds), accepted destinations/s for 1 000-destination
 * requests, latency at a fixed 2 000 requests/s, end-to-end delivery-report webhooks/s in the
 * sandbox at zero latency for SMS and for RCS with 10% SMS failovers, and the servers' peak RSS.
 * `--postgres URL` (or BENCH_DATABASE_URL) runs the servers on PostgreSQL; `--only` runs some parts:
 * `accept` (SMS acceptance), `webhooks` (SMS webhooks), `rcs` (RCS acceptance and webhooks),
 * `rcs-accept`, `rcs-webhooks`, or several of them comma-separated.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { untilDelivered, webhookThroughput, type WebhookThroughput } from './delivery.js';
import { fmt, load, median, percent, whilePaused, type Load } from './load.js';
import { type BenchServer, type Child, freePort, peakRssMb, startBenchServer, startChild, untilIdle } from './processes.js';
import { rcsBody } from './rcs.js';

const { values } = parseArgs({
  options: {
    postgres: { type: 'string' },
    duration: { type: 'string', default: '8' },
    /** Rounds of echo, single-destination SMS and RCS; the figures reported are their medians. */
    rounds: { type: 'string', default: '3' },
    webhooks: { type: 'string', default: '50000' },
    /** Messages of the RCS webhook run; as many as --webhooks when absent. */
    'rcs-webhooks': { type: 'string' },
    /** Runs some parts only (see above), e.g. for profiling. */
    only: { type: 'string' },
    /** Extra arguments for the server's node process, e.g. --cpu-prof. */
    'node-args': { type: 'string', default: '' },
  },
});
const duration = Number(values.duration);
const rounds = Math.max(1, Number(values.rounds));
const postgresUrl = values.postgres ?? process.env.BENCH_DATABASE_URL;
const distRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const PARTS = { accept: ['smsAccept'], webhooks: ['smsWebhooks'], rcs: ['rcsAccept', 'rcsWebhooks'], 'rcs-accept': ['rcsAccept'], 'rcs-webhooks': ['rcsWebhooks'] } as const;
type Part = (typeof PARTS)[keyof typeof PARTS][number];
const parts = new Set<Part>();
for (const name of values.only ? values.only.split(',') : Object.keys(PARTS)) {
  const named = PARTS[name.trim() as keyof typeof PARTS];
  if (!named) throw new Error(`--only takes ${Object.keys(PARTS).join(', ')} (comma-separated), not ${name}`);
  for (const part of named) parts.add(part);
}

const startSwitchboard = (): Promise<BenchServer> => startBenchServer({ name: 'sms', latencyMs: 0, postgresUrl, nodeArgs: values['node-args'] });

function smsBody(destinations: number, webhookUrl?: string): string {
  const message: Record<string, unknown> = {
    sender: 'Bench',
    destinations: Array.from({ length: destinations }, (_, i) => ({ to: `4179${String(1_000_000 + i).padStart(7, '0')}` })),
    content: { text: 'Your verification code is 123456' },
  };
  if (webhookUrl) message.webhooks = { delivery: { url: webhookUrl } };
  return JSON.stringify({ messages: [message] });
}

const print = (line: string): void => void process.stdout.write(`${line}\n`);

/** One webhook run on a server of its own; returns the server's peak RSS. */
async function webhookRun(label: string, total: number, run: (server: BenchServer) => Promise<WebhookThroughput>, describe: (hooks: WebhookThroughput) => string): Promise<number> {
  const server = await startSwitchboard();
  const hooks = await run(server);
  if (hooks.complete) print(`${label}${fmt(hooks.perSecond)} reports/s (${describe(hooks)} in ${hooks.seconds.toFixed(1)} s, ${fmt(hooks.posts)} POSTs)`);
  else print(`${label}incomplete: ${fmt(hooks.received)} of ${fmt(total)} reports within ${hooks.seconds.toFixed(0)} s; no rate`);
  const rss = peakRssMb(server.process.pid!);
  await server.stop();
  await server.cleanup();
  return rss;
}

async function main(): Promise<void> {
  print(`Switchboard benchmark — ${os.cpus().length} cores, Node ${process.version}, store: ${postgresUrl ? 'PostgreSQL' : 'SQLite'}, ${duration} s per load`);
  const rss: Array<[string, number]> = [];
  if (parts.has('smsAccept') || parts.has('rcsAccept')) rss.push(['accept run', await acceptRuns(parts.has('smsAccept'), parts.has('rcsAccept'))]);
  if (parts.has('smsWebhooks')) {
    const total = Number(values.webhooks);
    const run = (server: BenchServer) => webhookThroughput(server, { path: '/sms/3/messages', total, body: smsBody });
    rss.push(['webhook run', await webhookRun('end-to-end delivery webhooks:    ', total, run, () => `${fmt(total)} messages`)]);
  }
  if (parts.has('rcsWebhooks')) {
    const total = Number(values['rcs-webhooks'] ?? values.webhooks);
    const body = (count: number, webhookUrl: string) => rcsBody(count, { webhookUrl, failoverEvery: 10 });
    const run = (server: BenchServer) => webhookThroughput(server, { path: '/rcs/2/messages', total, body });
    const describe = (hooks: WebhookThroughput) =>
      `${fmt(total)} messages, ${fmt(hooks.byChannel.get('RCS') ?? 0)} reported as RCS, ${fmt(hooks.byChannel.get('SMS') ?? 0)} as SMS failovers,`;
    rss.push(['RCS webhook run', await webhookRun('end-to-end RCS delivery webhooks: ', total, run, describe)]);
  }
  const peak = Math.max(...rss.map(([, mb]) => mb));
  print(`peak RSS of the server:          ${peak.toFixed(0)} MB (${rss.map(([label, mb]) => `${label} ${mb.toFixed(0)} MB`).join(', ')})`);
}

const errorsOf = (run: Load): number => run.errors + run.non2xx;
const describeLoad = (run: Load): string => `p50 ${run.p50} ms, p99 ${run.p99} ms, errors ${errorsOf(run)}`;

/**
 * Single-destination acceptance: with `sms`, a steady-rate latency run, then rounds of the bare
 * echo and single-destination SMS, then 1 000-destination SMS; with `rcs`, single-destination RCS
 * cards in the same rounds. Returns the server's peak RSS.
 */
async function acceptRuns(sms: boolean, rcs: boolean): Promise<number> {
  const single = smsBody(1);
  const rcsSingle = rcsBody(1);
  let echo: Child | undefined;
  if (sms) {
    const echoPort = await freePort();
    echo = await startChild(path.join(distRoot, 'bench', 'echo-server.js'), [], { PORT: String(echoPort) }, [], `http://127.0.0.1:${echoPort}`, '/echo');
  }
  const echoRequest = { url: `${echo?.url}/echo`, method: 'POST' as const, connections: 50, headers: { 'content-type': 'application/json' }, body: single, duration };

  const server = await startSwitchboard();
  const headers = { 'content-type': 'application/json', authorization: `App ${server.apiKey}` };
  const smsRequest = { url: `${server.url}/sms/3/messages`, method: 'POST' as const, connections: 50, headers, body: single, duration };
  const rcsRequest = { ...smsRequest, url: `${server.url}/rcs/2/messages`, body: rcsSingle };
  // Each kind of request is warmed up, so neither side's first round runs before the JIT.
  if (sms) await load({ ...smsRequest, connections: 20, duration: 2 });
  if (rcs) await load({ ...rcsRequest, connections: 20, duration: 2 });
  if (sms) {
    // Latency at a sustainable rate first, on a server with no backlog; the saturation runs follow.
    await untilDelivered(server);
    const steady = await load({ ...smsRequest, overallRate: 2000 });
    print(`at a steady 2 000 req/s:         p50 ${steady.p50} ms, p99 ${steady.p99} ms (achieved ${fmt(steady.requestsPerSecond)} req/s)`);
    await load({ ...echoRequest, connections: 20, duration: 2 });
  }
  /** A load of the server on a quiet machine: its backlog delivered, its work after it done, the echo stopped. */
  const serverLoad = async (request: typeof smsRequest, round: number): Promise<Load> => {
    await untilDelivered(server);
    // Delivered is not done: the server checkpoints its WAL after a load. The echo is paused for
    // the server's turn and the server for the echo's: even idle, its timers wake threads a hundred
    // times a second, which measured about 8% off the echo on this kind of VM and so flattered the ratio.
    if (!(await untilIdle(server.process.pid!))) print(`  round ${round + 1}: the server was still busy after 30 s; this load shares the machine with that work`);
    return echo ? whilePaused(echo, () => load(request)) : load(request);
  };
  // The echo and the server take turns, so a change in the machine's speed during the run (this
  // kind of VM drifts by a third within minutes) weighs on both sides of a ratio alike. RCS runs
  // after the SMS in odd rounds and before the echo in even ones, so neither side always goes first.
  const pairs: Array<{ echo?: Load; single?: Load; rcs?: Load }> = [];
  for (let round = 0; round < rounds; round++) {
    const pair: (typeof pairs)[number] = {};
    if (rcs && round % 2 === 1) pair.rcs = await serverLoad(rcsRequest, round);
    if (sms && echo) {
      await untilDelivered(server);
      if (!(await untilIdle(server.process.pid!))) print(`  round ${round + 1}: the server was still busy after 30 s; this round shares the machine with that work`);
      const echoServer = echo;
      pair.echo = await whilePaused(server, () => load(echoRequest));
      pair.single = await whilePaused(echoServer, () => load(smsRequest));
    }
    if (rcs && round % 2 === 0) pair.rcs = await serverLoad(rcsRequest, round);
    pairs.push(pair);
    const shown: string[] = [];
    if (pair.echo && pair.single) {
      shown.push(`echo ${fmt(pair.echo.requestsPerSecond)} req/s, single-destination ${fmt(pair.single.requestsPerSecond)} SMS/s (${describeLoad(pair.single)}) = ${percent(pair.single.requestsPerSecond, pair.echo.requestsPerSecond)}`);
    }
    if (pair.rcs) {
      const ratio = pair.single ? ` = ${percent(pair.rcs.requestsPerSecond, pair.single.requestsPerSecond)} of SMS` : '';
      shown.push(`${pair.single ? 'RCS' : 'single-destination RCS'} ${fmt(pair.rcs.requestsPerSecond)} RCS/s (${describeLoad(pair.rcs)})${ratio}`);
    }
    print(`  round ${round + 1}: ${shown.join('; ')}`);
  }
  await echo?.stop();
  const rate = (pick: (pair: (typeof pairs)[number]) => Load | undefined): number => median(pairs.map((pair) => pick(pair)!.requestsPerSecond));
  if (sms) {
    const ratio = median(pairs.map((pair) => pair.single!.requestsPerSecond / pair.echo!.requestsPerSecond));
    print(`bare Fastify JSON echo:           ${fmt(rate((pair) => pair.echo))} req/s (median of ${rounds} rounds)`);
    print(`single-destination SMS accepted: ${fmt(rate((pair) => pair.single))} SMS/s (median; median ratio to the echo of the same round ${percent(ratio, 1)})`);
  }
  if (rcs) {
    const ratio = sms ? `; median ratio RCS/SMS of the same round ${percent(median(pairs.map((pair) => pair.rcs!.requestsPerSecond / pair.single!.requestsPerSecond)), 1)}` : '';
    print(`single-destination RCS accepted: ${fmt(rate((pair) => pair.rcs))} RCS/s (median of ${rounds} rounds${ratio})`);
  }
  if (sms) {
    await untilDelivered(server);
    const bulkLoad = await load({ ...smsRequest, connections: 4, body: smsBody(1000) });
    print(`1 000-destination requests:      ${fmt(bulkLoad.requestsPerSecond * 1000)} destinations/s (${describeLoad(bulkLoad)})`);
  }
  const rss = peakRssMb(server.process.pid!);
  await server.stop();
  await server.cleanup();
  return rss;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
