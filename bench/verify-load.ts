import autocannon from 'autocannon';
import { metricSum, type BenchServer } from './processes.js';

/** The loads of the 2FA benchmark: PIN sends to distinct numbers, verifications, and what came of them. */

export interface TwoFactorIds {
  applicationId: string;
  messageId: string;
}

export interface SentPin {
  pinId: string;
  to: string;
}

export interface Guess {
  pinId: string;
  pin: string;
}

/** How the server answered, by status and outcome, e.g. "200 MESSAGE_SENT" or "200 WRONG_PIN". */
export class Tally {
  private readonly counts = new Map<string, number>();

  add(outcome: string): void {
    this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + 1);
  }

  toString(): string {
    return [...this.counts].map(([outcome, count]) => `${outcome} ×${count.toLocaleString('en-US')}`).join(', ') || 'no answers';
  }
}

export interface Load {
  /** Answers of 200: a refused or failed request is not a PIN sent or a verification. */
  ok: number;
  p50: number;
  p99: number;
  seconds: number;
  /** performance.now() when the load began. */
  startedAt: number;
}

/**
 * One autocannon run, timed by the wall clock. A run of `amount` requests ends when the last one is
 * answered: autocannon itself notices only at its next one-second tick, which would round the run up
 * to whole seconds.
 */
export async function load(options: autocannon.Options): Promise<Load> {
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(options, (error, finished) => (error ? reject(error) : resolve(finished)));
    run.on('response', () => (lastAnswerAt = performance.now()));
  });
  const endedAt = options.amount === undefined ? performance.now() : lastAnswerAt;
  return { ok: result['2xx'], p50: result.latency.p50, p99: result.latency.p99, seconds: (endedAt - startedAt) / 1000, startedAt };
}

let numbersUsed = 0;
/** A number no PIN went to yet. All end in 0, so the sandbox's failing suffixes (9001–9004) never come up. */
const freshNumber = (): string => `4179${String(2_000_000 + 10 * numbersUsed++).padStart(7, '0')}`;

const jsonHeaders = (server: BenchServer) => ({ 'content-type': 'application/json', authorization: `App ${server.apiKey}` });

/** PIN sends over SMS, each to a fresh number; the PINs whose SMS left are added to `sent`. */
export function sendPinLoad(server: BenchServer, ids: TwoFactorIds, tally: Tally, sent: SentPin[]): autocannon.Options {
  return {
    url: `${server.url}/2fa/2/pin`,
    method: 'POST',
    headers: jsonHeaders(server),
    requests: [
      {
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ ...ids, to: freshNumber() }) }),
        onResponse: (status, body) => {
          if (status !== 200) return tally.add(String(status));
          const answer = JSON.parse(body) as SentPin & { smsStatus: string };
          tally.add(`200 ${answer.smsStatus}`);
          if (answer.smsStatus === 'MESSAGE_SENT') sent.push({ pinId: answer.pinId, to: answer.to });
        },
      },
    ],
  };
}

/** Verifications of the guesses in turn, round and round. */
export function verifyLoad(server: BenchServer, guesses: Guess[], tally: Tally): autocannon.Options {
  let next = 0;
  return {
    url: server.url,
    method: 'POST',
    headers: jsonHeaders(server),
    requests: [
      {
        setupRequest: (request) => {
          const guess = guesses[next++ % guesses.length]!;
          return { ...request, path: `/2fa/2/pin/${guess.pinId}/verify`, body: JSON.stringify({ pin: guess.pin }) };
        },
        onResponse: (status, body) => {
          if (status !== 200) return tally.add(String(status));
          const answer = JSON.parse(body) as { verified: boolean; pinError?: string };
          tally.add(`200 ${answer.verified ? 'verified' : answer.pinError}`);
        },
      },
    ],
  };
}

/** SMS delivered to sandbox phones since the server started: at zero latency the phone gets each as it is delivered. */
export async function deliveredSms(server: BenchServer): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return metricSum(text, 'switchboard_message_status_changes_total', 'group="DELIVERED"');
}

/** Polls until `expected` SMS have been delivered, or the time is up; `at` is performance.now() when they had. */
export async function untilDelivered(server: BenchServer, expected: number, timeoutMs: number): Promise<{ complete: boolean; delivered: number; at: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const delivered = await deliveredSms(server);
    if (delivered >= expected) return { complete: true, delivered, at: performance.now() };
    if (Date.now() > deadline) return { complete: false, delivered, at: performance.now() };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The count of SMS delivered, read every 50 ms from the start of a load, so that the time the last
 * of them arrived is known even when it came before the load's end was noticed.
 */
export class DeliveryWatch {
  private readonly samples: Array<{ at: number; delivered: number }> = [];
  private stopped = false;
  private readonly polling: Promise<void>;

  constructor(private readonly server: BenchServer) {
    this.polling = this.poll();
  }

  /** When `expected` SMS had been delivered: the first reading that showed them, waiting up to `timeoutMs`. */
  async until(expected: number, timeoutMs: number): Promise<{ complete: boolean; delivered: number; at: number }> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const reached = this.samples.find((sample) => sample.delivered >= expected);
      if (reached) return { complete: true, ...reached };
      const last = this.samples.at(-1);
      if (performance.now() > deadline) return { complete: false, delivered: last?.delivered ?? 0, at: performance.now() };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.polling;
  }

  private async poll(): Promise<void> {
    while (!this.stopped) {
      this.samples.push({ delivered: await deliveredSms(this.server), at: performance.now() });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** The PINs as their phones show them (the template ends with the PIN). */
export async function readPinsFromPhones(server: BenchServer, pins: SentPin[]): Promise<Guess[]> {
  const guesses: Guess[] = [];
  let next = 0;
  const reader = async (): Promise<void> => {
    while (next < pins.length) {
      const { pinId, to } = pins[next++]!;
      const inbox = await server.call('GET', `/sandbox/1/phones/${to}/messages`);
      const pin = /([0-9]+)$/.exec(inbox.json?.messages?.[0]?.text ?? '')?.[1];
      if (pin !== undefined) guesses.push({ pinId, pin });
    }
  };
  await Promise.all(Array.from({ length: 16 }, reader));
  return guesses;
}
