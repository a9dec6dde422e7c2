/**
 * `npm run bench:verify`: the 2FA API on one server with the sandbox at zero latency — latency of
 * PIN sends and of verifications at a steady rate, PINs sent per second at full speed to distinct
 * numbers and how fast they reach the sandbox phones, wrong and right PINs verified per second, the
 * server's CPU per operation and its peak RSS. `--postgres URL` (or BENCH_DATABASE_URL) runs the
 * server on PostgreSQL.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { cpuSeconds, peakRssMb, startBenchServer, untilIdle, type BenchServer } from './processes.js';
import { deliveredSms, DeliveryWatch, load, readPinsFromPhones, sendPinLoad, Tally, untilDelivered, verifyLoad, type Guess, type SentPin, type TwoFactorIds } from './verify-load.js';

const { values } = parseArgs({
  options: {
    postgres: { type: 'string' },
    duration: { type: 'string', default: '8' },
    /** PINs sent in the full-speed run. */
    pins: { type: 'string', default: '20000' },
    /** PINs read from the phones for the right-PIN run; each is verified again and again. */
    'right-pins': { type: 'string', default: '2000' },
    rate: { type: 'string', default: '1000' },
    connections: { type: 'string', default: '50' },
    /** Extra arguments for the server's node process, e.g. --cpu-prof. */
    'node-args': { type: 'string', default: '' },
  },
});
const postgresUrl = values.postgres ?? process.env.BENCH_DATABASE_URL;
const duration = Number(values.duration);
const rate = Number(values.rate);
const connections = Number(values.connections);
const TARGETS = postgresUrl ? { sends: 1_500, verifies: 3_000 } : { sends: 3_000, verifies: 5_000 };
const P99_TARGET_MS = 50;
const DELIVERY_TIMEOUT_MS = 120_000;
/** Seven digits: never the six-digit PIN, and as costly to check as a right one. */
const WRONG_PIN = '1234567';

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const print = (line: string): void => void process.stdout.write(`${line}\n`);

/** Limits loose enough for a benchmark, PINs that outlive it, and wrong guesses that keep answering WRONG_PIN. */
async function setUp(server: BenchServer): Promise<TwoFactorIds> {
  const configuration = {
    pinAttempts: 1_000,
    allowMultiplePinVerifications: true,
    pinTimeToLive: '1d',
    verifyPinLimit: '1000000/1s',
    sendPinPerApplicationLimit: '1000000/1d',
    sendPinPerPhoneNumberLimit: '1000000/1d',
  };
  const application = await server.call('POST', '/2fa/2/applications', { name: 'Bench', configuration });
  if (application.status !== 200) throw new Error(`application: ${application.status}`);
  const applicationId = application.json.applicationId as string;
  const template = await server.call('POST', `/2fa/2/applications/${applicationId}/messages`, { messageText: 'Your code is {{pin}}', pinType: 'NUMERIC', pinLength: 6 });
  if (template.status !== 200) throw new Error(`message template: ${template.status}`);
  return { applicationId, messageId: template.json.messageId as string };
}

/** Waits for every PIN sent so far to reach its phone and for the server to go quiet: no backlog may weigh on the next load. */
async function settle(server: BenchServer, sent: SentPin[]): Promise<void> {
  const { complete, delivered } = await untilDelivered(server, sent.length, DELIVERY_TIMEOUT_MS);
  if (!complete) print(`  (settling: ${fmt(delivered)} of ${fmt(sent.length)} PINs on the phones after ${DELIVERY_TIMEOUT_MS / 1000} s; the next load shares the machine with the rest)`);
  if (!(await untilIdle(server.process.pid!))) print('  (settling: the server was still busy after 30 s; the next load shares the machine with that work)');
}

const cpuMsEach = (cpuSeconds: number, count: number): string => `${((cpuSeconds / Math.max(1, count)) * 1000).toFixed(2)} CPU-ms`;

/** Latency of PIN sends at a steady rate, then PINs sent at full speed and how fast they reach the phones. */
async function sendRuns(server: BenchServer, ids: TwoFactorIds, sent: SentPin[]): Promise<void> {
  const pid = server.process.pid!;
  // A warm-up, not reported; then the steady rate on a server with no backlog.
  await load({ ...sendPinLoad(server, ids, new Tally(), sent), connections, amount: 2_000 });
  await settle(server, sent);
  const steadyTally = new Tally();
  const steady = await load({ ...sendPinLoad(server, ids, steadyTally, sent), connections, overallRate: rate, duration });
  print(`PIN sends at a steady ${fmt(rate)} req/s:   p50 ${steady.p50} ms, p99 ${steady.p99} ms (target p99 < ${P99_TARGET_MS} ms); ${fmt(steady.ok / steady.seconds)} answered 200/s: ${steadyTally}`);
  await settle(server, sent);

  const total = Number(values.pins);
  const sentBefore = sent.length;
  const deliveredBefore = await deliveredSms(server);
  const cpuBefore = cpuSeconds(pid);
  const tally = new Tally();
  const watch = new DeliveryWatch(server);
  const full = await load({ ...sendPinLoad(server, ids, tally, sent), connections, amount: total });
  print(
    `PINs sent at full speed:             ${fmt(full.ok / full.seconds)} sends/s answered 200 (target ≥ ${fmt(TARGETS.sends)}): ` +
      `${fmt(full.ok)} of ${fmt(total)} in ${full.seconds.toFixed(1)} s, p50 ${full.p50} ms, p99 ${full.p99} ms; ${tally}`,
  );
  const leaving = sent.length - sentBefore;
  const arrival = await watch.until(deliveredBefore + leaving, DELIVERY_TIMEOUT_MS);
  await watch.stop();
  const cpu = cpuSeconds(pid) - cpuBefore;
  const arrived = arrival.delivered - deliveredBefore;
  const seconds = (arrival.at - full.startedAt) / 1000;
  if (arrival.complete) {
    print(`PINs on the sandbox phones:          ${fmt(arrived / seconds)} PINs/s end to end (target ≥ ${fmt(TARGETS.sends)}): ${fmt(arrived)} within ${seconds.toFixed(1)} s of the first send`);
  } else {
    print(`PINs on the sandbox phones:          incomplete: ${fmt(arrived)} of ${fmt(leaving)} within ${(DELIVERY_TIMEOUT_MS / 1000).toFixed(0)} s of the sends' end; no rate`);
  }
  print(`  server CPU, sends to phones:       ${cpu.toFixed(1)} CPU-s, ${cpuMsEach(cpu, arrived)} per PIN (${(cpu / seconds).toFixed(2)} cores on average)`);
  await settle(server, sent);
}

/** Latency of verifications of wrong and of right PINs at a steady rate, then each verified at full speed. */
async function verifyRuns(server: BenchServer, sent: SentPin[]): Promise<void> {
  const pid = server.process.pid!;
  const rightWanted = Math.min(Number(values['right-pins']), sent.length);
  const right = await readPinsFromPhones(server, sent.slice(-rightWanted));
  if (right.length < rightWanted) print(`  (only ${fmt(right.length)} of ${fmt(rightWanted)} PINs were found on their phones)`);
  const wrong: Guess[] = sent.map(({ pinId }) => ({ pinId, pin: WRONG_PIN }));

  await load({ ...verifyLoad(server, wrong, new Tally()), connections, duration: 2 });
  await settle(server, sent);
  for (const [what, guesses] of [['wrong', wrong], ['right', right]] as const) {
    if (!(await untilIdle(pid))) print('  (the server was still busy after 30 s; this load shares the machine with that work)');
    const steadyTally = new Tally();
    const steady = await load({ ...verifyLoad(server, guesses, steadyTally), connections, overallRate: rate, duration });
    print(
      `${what} PINs at a steady ${fmt(rate)} req/s:  p50 ${steady.p50} ms, p99 ${steady.p99} ms (target p99 < ${P99_TARGET_MS} ms); ` +
        `${fmt(steady.ok / steady.seconds)} answered 200/s: ${steadyTally}`,
    );
  }

  for (const [what, guesses] of [['wrong', wrong], ['right', right]] as const) {
    if (!(await untilIdle(pid))) print('  (the server was still busy after 30 s; this load shares the machine with that work)');
    const tally = new Tally();
    const before = cpuSeconds(pid);
    const result = await load({ ...verifyLoad(server, guesses, tally), connections, duration });
    const cpu = cpuSeconds(pid) - before;
    print(
      `${what} PINs verified at full speed:   ${fmt(result.ok / result.seconds)} verifications/s answered 200 (target ≥ ${fmt(TARGETS.verifies)}): ` +
        `p50 ${result.p50} ms, p99 ${result.p99} ms; ${tally}; server ${cpuMsEach(cpu, result.ok)} each`,
    );
  }
}

async function main(): Promise<void> {
  const server = await startBenchServer({ name: 'verify', latencyMs: 0, postgresUrl, nodeArgs: values['node-args'] });
  print(`Switchboard 2FA benchmark — ${os.cpus().length} cores, Node ${process.version}, store: ${postgresUrl ? 'PostgreSQL' : 'SQLite'}, ${duration} s per timed load, ${connections} connections`);
  try {
    const ids = await setUp(server);
    const sent: SentPin[] = [];
    await sendRuns(server, ids, sent);
    await verifyRuns(server, sent);
    print(`peak RSS of the server:              ${peakRssMb(server.process.pid!).toFixed(0)} MB`);
  } finally {
    await server.stop();
    await server.cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
