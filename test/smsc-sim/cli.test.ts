import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { STATUS } from '../../src/network/smpp/codec.js';
import { runSmscSim } from '../../src/smsc-sim/cli.js';
import { startControlApi } from '../../src/smsc-sim/control-api.js';
import { advanceUntilSettled, Client, DELIVERY_TICK_MS, eventually, shortText, simFixture } from './sim-fixture.js';

const fixtures = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../test/fixtures/tls');
const submit = { source_addr: 'Me', destination_addr: '41793026727', registered_delivery: 1, short_message: Buffer.from('hi') };

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('SMSC simulator: control API', () => {
  const { simulator, bound, onCleanup } = simFixture();

  it('injects inbound messages and receipts, sets faults, drops connections, and reports', async () => {
    const { sim, port, clock } = await simulator({ receiptDelayMs: 60_000 });
    const control = await startControlApi(sim, 0);
    onCleanup(() => control.close());
    const c = await bound(port);
    await c.request('submit_sm', submit);
    // The injection is queued once the HTTP request arrives, and answered once the ESME acknowledged it.
    const delivering = <T>(request: Promise<T>): Promise<T> => advanceUntilSettled(clock, DELIVERY_TICK_MS, request);

    assert.deepEqual(await delivering(post(`${control.url}/inbound`, { from: '41793026727', to: '4412345', text: 'Hi back' })), { status: 200, json: { delivered: true } });
    assert.equal(shortText(c.delivered[0]!), 'Hi back');
    assert.equal((await delivering(post(`${control.url}/receipt`, { id: 'ABC123', stat: 'undeliv', err: 27 }))).status, 200);
    assert.match(shortText(c.delivered[1]!), /^id:ABC123 .*stat:UNDELIV err:027/);

    const messages = (await (await fetch(`${control.url}/messages`)).json()) as { results: Array<{ text: string }> };
    assert.deepEqual(messages.results.map((m) => m.text), ['hi']);
    const stats = (await (await fetch(`${control.url}/stats`)).json()) as Record<string, unknown>;
    assert.deepEqual([stats.submits, stats.receiptsPending, stats.inboundSent], [1, 1, 1]);

    assert.equal((await post(`${control.url}/faults`, { throttleNext: 1 })).status, 200);
    assert.equal((await c.request('submit_sm', submit)).command_status, STATUS.ESME_RTHROTTLED);
    const closed = c.closed();
    assert.equal((await post(`${control.url}/disconnect`, {})).status, 200);
    await closed;
    await eventually(async () => (sim.stats().binds === 0 ? true : undefined));
  });

  it('answers bad requests with 400 and unknown routes with 404', async () => {
    const { sim } = await simulator();
    const control = await startControlApi(sim, 0);
    onCleanup(() => control.close());
    assert.match(String((await post(`${control.url}/inbound`, { from: 1 })).json.error), /from, to and text are required/);
    assert.equal((await post(`${control.url}/inbound`, { from: '1', to: '2', text: 'x', split: 'udh16' })).status, 400);
    assert.match(String((await post(`${control.url}/faults`, '{nope')).json.error), /not JSON/);
    assert.match(String((await post(`${control.url}/inbound`, { from: '1', to: '2', text: 'x' })).json.error), /no receiver is bound/);
    assert.equal((await fetch(`${control.url}/nothing`)).status, 404);
  });
});

describe('switchboard smsc-sim', () => {
  const dir = mkdtemp(path.join(os.tmpdir(), 'smsc-sim-cli-'));
  after(async () => rm(await dir, { recursive: true, force: true }));

  it('starts from flags, prints where it listens, and applies its rules and account', async () => {
    const lines: string[] = [];
    const rules = path.join(await dir, 'rules.json');
    await writeFile(rules, JSON.stringify([{ suffix: '0000', stat: 'UNDELIV', err: 27 }]));
    const args = ['--port', '0', '--control-port', '0', '--receipt-delay-ms', '0', '--id-format', 'decimal', '--rules', rules, '--system-id', 'sb', '--password', 'pw'];
    const running = await runSmscSim(args, (line) => lines.push(line));
    try {
      const port = Number(/^SMSC simulator listening on smpp:\/\/127\.0\.0\.1:(\d+)$/.exec(lines[0]!)![1]);
      assert.match(lines[1]!, /^control API on http:\/\/127\.0\.0\.1:\d+/);
      const c = await Client.connect(port);
      try {
        assert.equal((await c.request('bind_transceiver', { system_id: 'sb', password: 'nope' })).command_status, STATUS.ESME_RINVPASWD);
        assert.equal((await c.request('bind_transceiver', { system_id: 'sb', password: 'pw' })).command_status, STATUS.ESME_ROK);
        assert.match(String((await c.request('submit_sm', { ...submit, destination_addr: '41790000' })).message_id), /^\d+$/);
        const receipt = await eventually(async () => c.delivered[0]);
        assert.match(shortText(receipt), /stat:UNDELIV err:027/);
      } finally {
        c.session.destroy();
      }
    } finally {
      await running.stop();
    }
  });

  it('sends receipts on another bind with --receipts-on-other-bind', async () => {
    const lines: string[] = [];
    const running = await runSmscSim(['--port', '0', '--receipt-delay-ms', '0', '--receipts-on-other-bind', '--spread-inbound-parts'], (line) => lines.push(line));
    const port = Number(/:(\d+)$/.exec(lines[0]!)![1]);
    const [one, two] = [await Client.connect(port), await Client.connect(port)];
    try {
      for (const c of [one, two]) assert.equal((await c.request('bind_transceiver', { system_id: 'sb', password: 'pw' })).command_status, STATUS.ESME_ROK);
      const id = String((await one.request('submit_sm', submit)).message_id);
      const receipt = await eventually(async () => two.delivered[0]);
      assert.equal(receipt.receipted_message_id, id);
      assert.equal(one.delivered.length, 0);
    } finally {
      one.session.destroy();
      two.session.destroy();
      await running.stop();
    }
  });

  it('speaks TLS with a key and certificate', async () => {
    const lines: string[] = [];
    const running = await runSmscSim(['--port', '0', '--tls-key', path.join(fixtures, 'key.pem'), '--tls-cert', path.join(fixtures, 'cert.pem')], (line) => lines.push(line));
    await running.stop();
    assert.match(lines[0]!, /^SMSC simulator listening on smpps:\/\/127\.0\.0\.1:\d+$/);
  });

  it('rejects bad flags and rule files with a clear message', async () => {
    const fails = (args: string[], message: RegExp): Promise<void> => assert.rejects(runSmscSim(args, () => undefined), message);
    await fails(['--id-format', 'octal'], /--id-format must be one of hex, decimal, got "octal"/);
    await fails(['--receipt-style', 'xml'], /--receipt-style must be one of text\+tlv, text, tlv/);
    await fails(['--port', 'x'], /--port must be a non-negative integer/);
    await fails(['--throttle-rate', '1.5'], /--throttle-rate must be a non-negative integer/);
    await fails(['--tls-key', 'k'], /--tls-key and --tls-cert go together/);
    await fails(['--password', 'pw'], /--system-id and --password go together/);
    await fails(['--bogus'], /Unknown option '--bogus'/);
    await fails(['--port', '0', '--tls-key', 'nowhere.pem', '--tls-cert', 'nowhere.pem'], /--tls-key nowhere\.pem: ENOENT/);
    await fails(['--port', '0', '--rules', path.join(await dir, 'missing.json')], /rules file .*missing\.json: ENOENT/);
    const rules = path.join(await dir, 'bad-rules.json');
    await writeFile(rules, JSON.stringify([{ suffix: 'ab', stat: 'NOPE', colour: 1, err: -1 }]));
    await assert.rejects(runSmscSim(['--port', '0', '--rules', rules], () => undefined), (error: Error) => {
      assert.match(error.message, /\[0\]\.suffix: digits/);
      assert.match(error.message, /\[0\]\.stat: one of/);
      assert.match(error.message, /\[0\]\.colour: unknown field/);
      assert.match(error.message, /\[0\]\.err: a non-negative integer/);
      return true;
    });
  });
});
