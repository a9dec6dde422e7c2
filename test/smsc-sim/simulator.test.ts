import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { connectSession, pdu, STATUS, type Pdu, type SmppSocketSession } from '../../src/network/smpp/codec.js';
import { runSmscSim } from '../../src/smsc-sim/cli.js';
import { startControlApi } from '../../src/smsc-sim/control-api.js';
import { SmscSimulator, type SmscSimulatorOptions } from '../../src/smsc-sim/simulator.js';
import { eventually } from '../core/pipeline/pipeline-fixture.js';

/** A bare ESME: sends requests, collects what the SMSC sends, acknowledges deliver_sm. */
class Client {
  readonly delivered: Pdu[] = [];
  private constructor(readonly session: SmppSocketSession) {
    session.on('error', () => undefined);
    session.on('deliver_sm', (request: Pdu) => {
      this.delivered.push(request);
      session.send(request.response());
    });
  }

  static async connect(port: number): Promise<Client> {
    return new Client(await connectSession({ host: '127.0.0.1', port, connectTimeoutMs: 2000 }));
  }

  request(command: string, fields: Record<string, unknown> = {}): Promise<Pdu> {
    return new Promise((resolve) => this.session.send(pdu(command, fields), resolve));
  }
}

describe('SMSC simulator', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });

  async function simulator(options: Partial<SmscSimulatorOptions> = {}): Promise<{ sim: SmscSimulator; port: number }> {
    const sim = new SmscSimulator({ host: '127.0.0.1', port: 0, ...options });
    const { port } = await sim.start();
    cleanups.push(() => sim.stop());
    return { sim, port };
  }

  async function client(port: number): Promise<Client> {
    const c = await Client.connect(port);
    cleanups.push(async () => c.session.destroy());
    return c;
  }

  const submit = { source_addr: 'Me', destination_addr: '41793026727', registered_delivery: 1, short_message: Buffer.from('hi') };

  it('checks credentials when accounts are configured', async () => {
    const { port } = await simulator({ accounts: [{ systemId: 'sb', password: 'pw' }] });
    const c = await client(port);
    assert.equal((await c.request('bind_transceiver', { system_id: 'sb', password: 'no' })).command_status, STATUS.ESME_RINVPASWD);
    assert.equal((await c.request('bind_transceiver', { system_id: 'who', password: 'pw' })).command_status, STATUS.ESME_RINVSYSID);
    const ok = await c.request('bind_transceiver', { system_id: 'sb', password: 'pw' });
    assert.equal(ok.command_status, 0);
    assert.equal(ok.system_id, 'SwitchboardSim');
  });

  it('refuses submits from a receiver, and sends no receipt when none was asked for', async () => {
    const { sim, port } = await simulator();
    const receiver = await client(port);
    await receiver.request('bind_receiver', { system_id: 'sb' });
    assert.equal((await receiver.request('submit_sm', submit)).command_status, STATUS.ESME_RINVBNDSTS);
    const trx = await client(port);
    await trx.request('bind_transmitter', { system_id: 'other' });
    const resp = await trx.request('submit_sm', { ...submit, registered_delivery: 0 });
    assert.match(String(resp.message_id), /^[0-9A-F]+$/);
    assert.equal(sim.stats().receiptsPending, 0);
  });

  it('keeps receipts while no receiver is bound and delivers them once one binds', async () => {
    const { sim, port } = await simulator({ idFormat: 'decimal', receiptStyle: 'text' });
    const tx = await client(port);
    await tx.request('bind_transmitter', { system_id: 'sb' });
    const resp = await tx.request('submit_sm', submit);
    await eventually(async () => (sim.stats().receiptsPending === 1 ? true : undefined));
    const rx = await client(port);
    await rx.request('bind_receiver', { system_id: 'sb' });
    const receipt = await eventually(async () => rx.delivered[0]);
    assert.equal(receipt.esm_class, 4);
    assert.match((receipt.short_message as Buffer).toString('latin1'), new RegExp(`^id:${String(resp.message_id)} sub:001 dlvrd:001 .* stat:DELIVRD err:000`));
    assert.equal(receipt.receipted_message_id, undefined, 'text-only style');
  });

  it('answers with the faults it is given, then behaves again', async () => {
    const { sim, port } = await simulator({ faults: { throttleNext: 1, queueFullNext: 1, rejectNext: { count: 1, status: STATUS.ESME_RSYSERR } } });
    const c = await client(port);
    await c.request('bind_transceiver', { system_id: 'sb' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await c.request('submit_sm', submit)).command_status);
    assert.deepEqual(statuses, [STATUS.ESME_RTHROTTLED, STATUS.ESME_RMSGQFUL, STATUS.ESME_RSYSERR, 0]);
    sim.setFaults({ refuseBinds: true });
    const late = await client(port);
    assert.equal((await late.request('bind_transceiver', { system_id: 'sb' })).command_status, STATUS.ESME_RBINDFAIL);
    assert.equal(sim.stats().throttled, 2);
  });

  it('decodes packed GSM 7-bit text', async () => {
    const { sim, port } = await simulator({ gsm7Packing: 'packed' });
    const c = await client(port);
    await c.request('bind_transceiver', { system_id: 'sb' });
    // "hello" packed: e8 32 9b fd 06
    await c.request('submit_sm', { ...submit, short_message: Buffer.from([0xe8, 0x32, 0x9b, 0xfd, 0x06]) });
    assert.equal(sim.received()[0]!.text, 'hello');
  });

  it('is driven over its control API', async () => {
    const { sim, port } = await simulator();
    const control = await startControlApi(sim, 0);
    cleanups.push(() => control.close());
    const c = await client(port);
    await c.request('bind_transceiver', { system_id: 'sb' });
    await c.request('submit_sm', submit);
    const inbound = await fetch(`${control.url}/inbound`, { method: 'POST', body: JSON.stringify({ from: '41793026727', to: '4412345', text: 'Hi back' }) });
    assert.equal(inbound.status, 200);
    const mo = c.delivered.find((p) => p.esm_class === 0)!;
    assert.equal((mo.short_message as Buffer).toString('latin1'), 'Hi back');
    assert.equal(((await (await fetch(`${control.url}/messages`)).json()) as { results: unknown[] }).results.length, 1);
    assert.equal(((await (await fetch(`${control.url}/stats`)).json()) as { submits: number }).submits, 1);
    assert.equal((await fetch(`${control.url}/inbound`, { method: 'POST', body: '{"from":1}' })).status, 400);
    await fetch(`${control.url}/faults`, { method: 'POST', body: JSON.stringify({ throttleNext: 1 }) });
    assert.equal((await c.request('submit_sm', submit)).command_status, STATUS.ESME_RTHROTTLED);
    await fetch(`${control.url}/disconnect`, { method: 'POST' });
    await eventually(async () => (sim.stats().binds === 0 ? true : undefined));
  });
});

describe('switchboard smsc-sim', () => {
  const dir = mkdtemp(path.join(os.tmpdir(), 'smsc-sim-cli-'));
  after(async () => rm(await dir, { recursive: true, force: true }));

  it('starts from flags and prints where it listens', async () => {
    const lines: string[] = [];
    const rules = path.join(await dir, 'rules.json');
    await writeFile(rules, JSON.stringify([{ suffix: '0000', stat: 'UNDELIV', err: 27 }]));
    const running = await runSmscSim(['--port', '0', '--control-port', '0', '--receipt-delay-ms', '5', '--rules', rules], (line) => lines.push(line));
    try {
      assert.match(lines[0]!, /^SMSC simulator listening on smpp:\/\/127\.0\.0\.1:\d+$/);
      assert.match(lines[1]!, /^control API on http:\/\/127\.0\.0\.1:\d+/);
    } finally {
      await running.stop();
    }
  });

  it('rejects bad flags and rule files with a clear message', async () => {
    await assert.rejects(runSmscSim(['--id-format', 'octal'], () => undefined), /--id-format must be one of hex, decimal, got "octal"/);
    await assert.rejects(runSmscSim(['--port', 'x'], () => undefined), /--port must be a non-negative integer/);
    await assert.rejects(runSmscSim(['--tls-key', 'k'], () => undefined), /--tls-key and --tls-cert go together/);
    await assert.rejects(runSmscSim(['--bogus'], () => undefined), /Unknown option '--bogus'/);
    const rules = path.join(await dir, 'bad-rules.json');
    await writeFile(rules, JSON.stringify([{ suffix: 'ab', stat: 'NOPE', colour: 1 }]));
    await assert.rejects(runSmscSim(['--port', '0', '--rules', rules], () => undefined), (error: Error) => {
      assert.match(error.message, /\[0\]\.suffix: digits/);
      assert.match(error.message, /\[0\]\.stat: one of/);
      assert.match(error.message, /\[0\]\.colour: unknown field/);
      return true;
    });
  });
});
