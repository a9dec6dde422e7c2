import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { systemClock } from '../../../src/core/clock.js';
import { createSmppServer, pdu, STATUS, type Pdu, type SmppServer, type SmppSocketSession } from '../../../src/network/smpp/codec.js';
import { SmppConnection } from '../../../src/network/smpp/connection.js';
import { SMSC_DEFAULTS, type SmscOptions } from '../../../src/network/smpp/smsc-options.js';
import { eventually, silentLogger } from '../../core/pipeline/pipeline-fixture.js';

/** A scripted SMSC: the test decides how each PDU is answered. */
interface ScriptedSmsc {
  server: SmppServer;
  port: number;
  sessions: SmppSocketSession[];
  binds: number;
  enquireLinks: number;
  submits: Pdu[];
}

async function scriptedSmsc(onSubmit: (pdu: Pdu, session: SmppSocketSession, smsc: ScriptedSmsc) => void): Promise<ScriptedSmsc> {
  const smsc = { sessions: [], binds: 0, enquireLinks: 0, submits: [] } as unknown as ScriptedSmsc;
  smsc.server = createSmppServer({}, (session) => {
    smsc.sessions.push(session);
    session.on('error', () => undefined);
    session.on('pdu', (pdu: Pdu) => {
      if (pdu.command === 'bind_transceiver') {
        smsc.binds++;
        session.send(pdu.response({ system_id: 'scripted' }));
      } else if (pdu.command === 'enquire_link') {
        smsc.enquireLinks++;
        session.send(pdu.response());
      } else if (pdu.command === 'submit_sm') {
        smsc.submits.push(pdu);
        onSubmit(pdu, session, smsc);
      } else if (pdu.command === 'unbind') {
        session.send(pdu.response());
      }
    });
  });
  await new Promise<void>((resolve) => smsc.server.listen(0, '127.0.0.1', resolve));
  smsc.port = (smsc.server.address() as AddressInfo).port;
  return smsc;
}

function options(port: number, overrides: Partial<SmscOptions> = {}): SmscOptions {
  return {
    ...SMSC_DEFAULTS,
    name: 'test',
    host: '127.0.0.1',
    port,
    systemId: 'sb',
    password: 'pw',
    source: {},
    destination: {},
    inboundAccount: 'default',
    reconnectMinMs: 20,
    reconnectMaxMs: 50,
    ...overrides,
  };
}

describe('SmppConnection', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });

  function open(smsc: ScriptedSmsc, overrides: Partial<SmscOptions> = {}): SmppConnection {
    const connection = new SmppConnection({
      options: options(smsc.port, overrides),
      role: 'transceiver',
      label: 'test/1/trx',
      log: silentLogger(),
      clock: systemClock,
      onRequest: async () => STATUS.ESME_ROK,
    });
    cleanups.push(async () => {
      await connection.stop();
      await new Promise<void>((resolve) => smsc.server.close(() => resolve()));
      for (const session of smsc.sessions) session.destroy();
    });
    connection.start();
    return connection;
  }

  const deadline = (ms = 5000): number => systemClock.now() + ms;

  it('keeps no more submits outstanding than the window', async () => {
    const held: Array<() => void> = [];
    const smsc = await scriptedSmsc((pdu, session) => held.push(() => session.send(pdu.response({ message_id: `id${pdu.sequence_number}` }))));
    const connection = open(smsc, { window: 3 });
    const answers = Array.from({ length: 7 }, () => connection.submit({ destination_addr: '41793026727' }, deadline()));
    await eventually(async () => (smsc.submits.length === 3 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(smsc.submits.length, 3, 'the fourth waits for an answer');
    assert.equal(connection.windowInUse, 3);
    while (smsc.submits.length < 7 || held.length > 0) {
      held.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await Promise.all(answers);
    assert.ok(results.every((r) => r.kind === 'answered' && r.status === 0));
  });

  it('spaces submits to the configured rate', async () => {
    const arrivals: number[] = [];
    const smsc = await scriptedSmsc((pdu, session) => {
      arrivals.push(performance.now());
      session.send(pdu.response({ message_id: 'x' }));
    });
    const connection = open(smsc, { throughput: 20 });
    await eventually(async () => (connection.state === 'bound' ? true : undefined));
    await Promise.all(Array.from({ length: 10 }, () => connection.submit({ destination_addr: '1' }, deadline())));
    // 20/s is one per 50 ms after a burst of a tenth of a second: six waits of 50 ms for ten submits
    // (send-pacing.test.ts has the exact schedule). A timer may fire up to a millisecond early.
    const waits = 6;
    assert.ok(arrivals[9]! - arrivals[0]! >= waits * 50 - waits, `10 submits took only ${Math.round(arrivals[9]! - arrivals[0]!)} ms`);
  });

  it('sends again, after the reconnect, what was unanswered when the connection dropped', async () => {
    let drop = true;
    const smsc = await scriptedSmsc((pdu, session, state) => {
      if (drop && state.submits.length === 3) {
        drop = false;
        session.destroy();
        return;
      }
      if (!drop && state.binds < 2) return;
      session.send(pdu.response({ message_id: `id-${pdu.destination_addr}` }));
    });
    const connection = open(smsc, { window: 10 });
    const answers = await Promise.all(['1', '2', '3', '4'].map((n) => connection.submit({ destination_addr: n }, deadline())));
    assert.equal(smsc.binds, 2, 'it reconnected');
    assert.deepEqual(
      answers.map((a) => (a.kind === 'answered' ? a.messageId : a.kind)),
      ['id-1', 'id-2', 'id-3', 'id-4'],
    );
  });

  it('pauses on ESME_RTHROTTLED and sends the same PDU again', async () => {
    const smsc = await scriptedSmsc((pdu, session, state) => {
      const status = state.submits.length <= 2 ? STATUS.ESME_RTHROTTLED : STATUS.ESME_ROK;
      session.send(pdu.response({ command_status: status, message_id: status === 0 ? 'ok' : '' }));
    });
    const connection = open(smsc);
    const answer = await connection.submit({ destination_addr: '41793026727' }, deadline());
    assert.deepEqual(answer, { kind: 'answered', status: 0, messageId: 'ok' });
    assert.equal(smsc.submits.length, 3);
    assert.equal(connection.stats.throttled, 2);
  });

  it('gives up with "throttled" when throttling outlasts the deadline', async () => {
    const smsc = await scriptedSmsc((pdu, session) => session.send(pdu.response({ command_status: STATUS.ESME_RMSGQFUL })));
    const connection = open(smsc);
    assert.deepEqual(await connection.submit({ destination_addr: '1' }, deadline(300)), { kind: 'throttled' });
  });

  it('resets a connection whose answers stop coming, and keeps it alive with enquire_link when idle', async () => {
    let answer = false;
    const smsc = await scriptedSmsc((pdu, session) => {
      if (answer) session.send(pdu.response({ message_id: 'late' }));
    });
    const connection = open(smsc, { responseTimeoutMs: 200, enquireLinkMs: 100 });
    const pending = connection.submit({ destination_addr: '1' }, deadline());
    await eventually(async () => (connection.stats.timeouts > 0 ? true : undefined));
    answer = true;
    assert.equal((await pending).kind, 'answered', 'sent again on the new connection');
    await eventually(async () => (smsc.enquireLinks > 0 ? true : undefined));
  });

  it('refuses requests it does not handle without dropping the bind, and never answers alert_notification', async () => {
    const smsc = await scriptedSmsc(() => undefined);
    const connection = open(smsc);
    await eventually(async () => (connection.state === 'bound' ? true : undefined));
    const session = smsc.sessions[0]!;
    const answers: Pdu[] = [];
    session.on('pdu', (received: Pdu) => received.isResponse() && answers.push(received));
    session.send(pdu('alert_notification', { source_addr: '1', esme_addr: '2' }));
    session.send(pdu('replace_sm', { message_id: 'x', short_message: Buffer.from('y') }));
    session.send(pdu('outbind', { system_id: 'a', password: 'b' }));
    await eventually(async () => (answers.length >= 2 ? true : undefined));
    assert.deepEqual(answers.map((a) => [a.command, a.command_status]), [
      ['replace_sm_resp', STATUS.ESME_RINVCMDID],
      ['generic_nack', STATUS.ESME_RINVCMDID],
    ]);
    assert.equal(connection.state, 'bound');
  });

  it('answers a submit the codec cannot write as an invalid PDU, and goes on with the next', async () => {
    const smsc = await scriptedSmsc((pdu, session) => session.send(pdu.response({ message_id: 'fine' })));
    const connection = open(smsc);
    const [bad, good] = await Promise.all([
      connection.submit({ destination_addr: '1', sar_msg_ref_num: -1 }, deadline()),
      connection.submit({ destination_addr: '2' }, deadline()),
    ]);
    assert.deepEqual(bad, { kind: 'answered', status: STATUS.ESME_RINVPARLEN, messageId: '' });
    assert.deepEqual(good, { kind: 'answered', status: 0, messageId: 'fine' });
  });

  it('answers queued submits "unsent" when it cannot bind before their deadline', async () => {
    const smsc = await scriptedSmsc(() => undefined);
    smsc.server.removeAllListeners('connection');
    smsc.server.on('connection', (socket) => socket.destroy());
    const connection = open(smsc);
    assert.deepEqual(await connection.submit({ destination_addr: '1' }, deadline(200)), { kind: 'unsent' });
    assert.ok(connection.stats.disconnects + connection.stats.connectFailures >= 0);
    assert.notEqual(connection.state, 'bound');
  });
});
