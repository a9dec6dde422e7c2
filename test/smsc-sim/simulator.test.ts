import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pdu, STATUS, type Pdu } from '../../src/network/smpp/codec.js';
import { eventually, passDeliveryTick, simFixture } from './sim-fixture.js';

const fixtures = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../test/fixtures/tls');
const submit = { source_addr: 'Me', destination_addr: '41793026727', registered_delivery: 1, short_message: Buffer.from('hi') };

describe('SMSC simulator: sessions', () => {
  const { simulator, client, bound } = simFixture();

  it('binds in the three modes, and counts the binds by mode', async () => {
    const { sim, port } = await simulator();
    for (const mode of ['transceiver', 'transmitter', 'receiver']) {
      const c = await client(port);
      const response = await c.request(`bind_${mode}`, { system_id: 'sb', password: 'any' });
      assert.equal(response.command, `bind_${mode}_resp`);
      assert.equal(response.command_status, STATUS.ESME_ROK);
      assert.equal(response.system_id, 'SwitchboardSim');
      assert.equal((await c.request(`bind_${mode}`, { system_id: 'sb' })).command_status, STATUS.ESME_RALYBND);
    }
    assert.deepEqual(sim.stats().bindsByMode, { transceiver: 1, transmitter: 1, receiver: 1 });
    assert.equal(sim.stats().binds, 3);
  });

  it('checks credentials when accounts are configured', async () => {
    const { port } = await simulator({ accounts: [{ systemId: 'sb', password: 'pw' }] });
    const c = await client(port);
    assert.equal((await c.request('bind_transceiver', { system_id: 'sb', password: 'no' })).command_status, STATUS.ESME_RINVPASWD);
    assert.equal((await c.request('bind_transceiver', { system_id: 'who', password: 'pw' })).command_status, STATUS.ESME_RINVSYSID);
    assert.equal((await c.request('bind_transceiver', { system_id: 'sb', password: 'pw' })).command_status, STATUS.ESME_ROK);
  });

  it('takes submits only from transmitters and transceivers', async () => {
    const { port } = await simulator();
    const unbound = await client(port);
    assert.equal((await unbound.request('submit_sm', submit)).command_status, STATUS.ESME_RINVBNDSTS);
    const receiver = await bound(port, 'receiver');
    assert.equal((await receiver.request('submit_sm', submit)).command_status, STATUS.ESME_RINVBNDSTS);
    assert.equal((await receiver.request('data_sm', { ...submit, short_message: undefined })).command_status, STATUS.ESME_RINVBNDSTS);
    const transmitter = await bound(port, 'transmitter');
    assert.equal((await transmitter.request('submit_sm', submit)).command_status, STATUS.ESME_ROK);
    const dataSm = await transmitter.request('data_sm', { source_addr: 'Me', destination_addr: '41793026727', message_payload: Buffer.from('hi') });
    assert.equal(dataSm.command_status, STATUS.ESME_ROK);
    assert.match(String(dataSm.message_id), /^[0-9A-F]+$/);
  });

  it('answers enquire_link, refuses commands it does not handle, and closes after unbind', async () => {
    const { sim, port } = await simulator();
    const c = await bound(port);
    assert.equal((await c.request('enquire_link')).command, 'enquire_link_resp');
    const refused = await c.request('query_sm', { message_id: '1', source_addr: 'Me' });
    assert.equal(refused.command_status, STATUS.ESME_RINVCMDID);
    const closed = c.closed();
    assert.equal((await c.request('unbind')).command, 'unbind_resp');
    await closed;
    await eventually(async () => (sim.stats().binds === 0 ? true : undefined));
  });

  it('speaks SMPP over TLS', async () => {
    const [key, cert] = await Promise.all([readFile(path.join(fixtures, 'key.pem')), readFile(path.join(fixtures, 'cert.pem'))]);
    const { port, clock } = await simulator({ tls: { key, cert } });
    const c = await client(port, { ca: cert, servername: 'localhost' });
    assert.equal((await c.request('bind_transceiver', { system_id: 'sb', password: 'pw' })).command_status, STATUS.ESME_ROK);
    assert.equal((await c.request('submit_sm', submit)).command_status, STATUS.ESME_ROK);
    passDeliveryTick(clock);
    await eventually(async () => c.delivered[0]);
  });

  it('gives every submit a new id, in order, in the format asked for', async () => {
    for (const idFormat of ['hex', 'decimal'] as const) {
      const { port } = await simulator({ idFormat });
      const c = await bound(port);
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push(String((await c.request('submit_sm', submit)).message_id));
      for (const id of ids) assert.match(id, idFormat === 'hex' ? /^[0-9A-F]{8}$/ : /^\d{9,10}$/);
      const numbers = ids.map((id) => parseInt(id, idFormat === 'hex' ? 16 : 10));
      assert.deepEqual(numbers, [numbers[0], numbers[0]! + 1, numbers[0]! + 2]);
    }
  });
});

describe('SMSC simulator: faults', () => {
  const { simulator, client, bound } = simFixture();

  it('answers with the faults it is given, then behaves again', async () => {
    const { sim, port } = await simulator({ faults: { throttleNext: 1, queueFullNext: 1, rejectNext: { count: 1, status: STATUS.ESME_RSYSERR } } });
    const c = await bound(port);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await c.request('submit_sm', submit)).command_status);
    assert.deepEqual(statuses, [STATUS.ESME_RTHROTTLED, STATUS.ESME_RMSGQFUL, STATUS.ESME_RSYSERR, STATUS.ESME_ROK]);
    sim.setFaults({ throttleNext: 2 });
    assert.equal((await c.request('submit_sm', submit)).command_status, STATUS.ESME_RTHROTTLED);
    assert.equal((await c.request('submit_sm', submit)).command_status, STATUS.ESME_RTHROTTLED);
    assert.equal((await c.request('submit_sm', submit)).command_status, STATUS.ESME_ROK);
    assert.equal(sim.stats().throttled, 4);
    assert.equal(sim.stats().submits, 2);
    sim.setFaults({ refuseBinds: true });
    const late = await client(port);
    assert.equal((await late.request('bind_transceiver', { system_id: 'sb' })).command_status, STATUS.ESME_RBINDFAIL);
  });

  it('throttles a connection beyond its rate, and takes submits again the next second', async () => {
    const { port, clock } = await simulator({ faults: { throttleRate: 3 } });
    const c = await bound(port);
    const statuses = await Promise.all(Array.from({ length: 5 }, () => c.request('submit_sm', submit)));
    assert.deepEqual(
      statuses.map((r) => r.command_status),
      [0, 0, 0, STATUS.ESME_RTHROTTLED, STATUS.ESME_RTHROTTLED],
    );
    clock.advance(999);
    assert.equal((await c.request('submit_sm', submit)).command_status, STATUS.ESME_RTHROTTLED, 'the same second');
    clock.advance(1);
    assert.equal((await c.request('submit_sm', submit)).command_status, STATUS.ESME_ROK);
  });

  it('drops every connection mid-window after accepting the given number of submits', async () => {
    const { sim, port } = await simulator({ faults: { disconnectAfterSubmits: 3 } });
    const c = await bound(port);
    const receiver = await bound(port, 'receiver', 'other');
    const answered: Pdu[] = [];
    const closed = c.closed();
    for (let i = 0; i < 6; i++) c.session.send(pdu('submit_sm', { ...submit, registered_delivery: 0 }), (response: Pdu) => answered.push(response));
    await Promise.all([closed, receiver.closed()]);
    assert.equal(answered.length, 3);
    assert.ok(answered.every((r) => r.command_status === STATUS.ESME_ROK));
    assert.equal(sim.stats().submits, 3);
    assert.equal(sim.received().length, 3);
    const again = await bound(port);
    assert.equal((await again.request('submit_sm', submit)).command_status, STATUS.ESME_ROK, 'one-shot: the next connection works');
  });

  it('answers late when told to', async () => {
    const { port, clock } = await simulator({ faults: { responseDelayMs: 10_000 } });
    const c = await bound(port);
    let answer: Pdu | undefined;
    void c.request('submit_sm', submit).then((response) => void (answer = response));
    await c.roundTrip();
    assert.equal(answer, undefined, 'not at once');
    clock.advance(9_999);
    await c.roundTrip();
    assert.equal(answer, undefined, 'not before responseDelayMs');
    clock.advance(1);
    assert.equal((await eventually(async () => answer)).command_status, STATUS.ESME_ROK);
  });
});
