import assert from 'node:assert/strict';
import net, { type AddressInfo, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
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
  unbinds: number;
  /** Whether unbind is answered (it is unless a test says otherwise). */
  answersUnbind: boolean;
  submits: Pdu[];
}

/** The first reconnect comes 16 to 24 ms of the clock after a drop: reconnectMinMs (20) with ±20% jitter. */
const FIRST_RECONNECT_EARLIEST_MS = 16;
const FIRST_RECONNECT_LATEST_MS = 24;

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

/** Lets callbacks already queued run (a promise settled by a timer that just fired). */
const afterPendingCallbacks = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SmppConnection', () => {
  const cleanups: Array<() => Promise<void>> = [];
  let clock: ManualClock;
  beforeEach(() => {
    clock = new ManualClock();
  });
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });

  async function scriptedSmsc(onSubmit: (pdu: Pdu, session: SmppSocketSession, smsc: ScriptedSmsc) => void): Promise<ScriptedSmsc> {
    const smsc = { sessions: [], binds: 0, enquireLinks: 0, unbinds: 0, answersUnbind: true, submits: [] } as unknown as ScriptedSmsc;
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
          smsc.unbinds++;
          if (smsc.answersUnbind) session.send(pdu.response());
        }
      });
    });
    await new Promise<void>((resolve) => smsc.server.listen(0, '127.0.0.1', resolve));
    smsc.port = (smsc.server.address() as AddressInfo).port;
    cleanups.push(async () => {
      const closed = new Promise<void>((resolve) => smsc.server.close(() => resolve()));
      for (const session of smsc.sessions) session.destroy();
      await closed;
    });
    return smsc;
  }

  function open(port: number, overrides: Partial<SmscOptions> = {}): SmppConnection {
    const connection = new SmppConnection({
      options: options(port, overrides),
      role: 'transceiver',
      label: 'test/1/trx',
      log: silentLogger(),
      clock,
      onRequest: async () => STATUS.ESME_ROK,
    });
    cleanups.push(() => connection.stop());
    connection.start();
    return connection;
  }

  const deadline = (ms = 5000): number => clock.now() + ms;
  /** Waits for what sockets bring; the clock stands still meanwhile. */
  const until = (condition: () => boolean): Promise<true> => eventually(async () => (condition() ? true : undefined), 5000, 2);

  it('keeps no more submits outstanding than the window', async () => {
    const held: Array<() => void> = [];
    const smsc = await scriptedSmsc((pdu, session) => held.push(() => session.send(pdu.response({ message_id: `id${pdu.sequence_number}` }))));
    const connection = open(smsc.port, { window: 3 });
    const answers = Array.from({ length: 7 }, () => connection.submit({ destination_addr: '41793026727' }, deadline()));
    await until(() => smsc.submits.length >= 3);
    // Submits are written as the window allows, so the count written says what went without waiting.
    assert.equal(connection.stats.submitsSent, 3, 'the fourth waits for an answer');
    assert.equal(connection.windowInUse, 3);
    for (let answered = 1; answered <= 7; answered++) {
      await until(() => held.length > 0);
      held.shift()!();
      await until(() => connection.stats.submitsOk === answered);
      assert.equal(connection.stats.submitsSent, Math.min(7, 3 + answered), 'each answer lets one more go');
    }
    const results = await Promise.all(answers);
    assert.ok(results.every((r) => r.kind === 'answered' && r.status === 0));
  });

  it('spaces submits to the configured rate', async () => {
    const smsc = await scriptedSmsc((pdu, session) => session.send(pdu.response({ message_id: 'x' })));
    const connection = open(smsc.port, { throughput: 20 });
    await until(() => connection.state === 'bound');
    const start = clock.now();
    const answers = Promise.all(Array.from({ length: 10 }, () => connection.submit({ destination_addr: '1' }, deadline())));
    // The clock moves a millisecond at a time, and each submit is stamped when it is written.
    const sentAt: number[] = [];
    const stamp = (): void => {
      while (sentAt.length < connection.stats.submitsSent) sentAt.push(clock.now() - start);
    };
    stamp();
    while (clock.now() - start < 400) {
      clock.advance(1);
      stamp();
    }
    // 20/s is one per 50 ms once a tenth of a second's worth went at once (see send-pacing.test.ts).
    assert.deepEqual(sentAt, [0, 0, 0, 0, 50, 100, 150, 200, 250, 300]);
    assert.ok((await answers).every((r) => r.kind === 'answered' && r.status === 0));
    assert.equal(smsc.submits.length, 10);
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
    const connection = open(smsc.port, { window: 10 });
    const answers = Promise.all(['1', '2', '3', '4'].map((n) => connection.submit({ destination_addr: n }, deadline())));
    await until(() => connection.stats.disconnects === 1);
    clock.advance(FIRST_RECONNECT_EARLIEST_MS - 1);
    assert.equal(connection.state, 'down', 'it waits its back-off before reconnecting');
    clock.advance(FIRST_RECONNECT_LATEST_MS - FIRST_RECONNECT_EARLIEST_MS + 1);
    assert.equal(connection.state, 'connecting');
    assert.deepEqual(
      (await answers).map((a) => (a.kind === 'answered' ? a.messageId : a.kind)),
      ['id-1', 'id-2', 'id-3', 'id-4'],
    );
    assert.equal(smsc.binds, 2, 'it reconnected');
  });

  it('pauses on ESME_RTHROTTLED, longer while it goes on, and sends the same PDU again', async () => {
    const smsc = await scriptedSmsc((pdu, session, state) => {
      const status = state.submits.length <= 2 ? STATUS.ESME_RTHROTTLED : STATUS.ESME_ROK;
      session.send(pdu.response({ command_status: status, message_id: status === 0 ? 'ok' : '' }));
    });
    const connection = open(smsc.port);
    const answer = connection.submit({ destination_addr: '41793026727' }, deadline());
    await until(() => connection.stats.throttled === 1);
    clock.advance(199);
    assert.equal(connection.stats.submitsSent, 1, 'paused 200 ms after the first ESME_RTHROTTLED');
    clock.advance(1);
    assert.equal(connection.stats.submitsSent, 2);
    await until(() => connection.stats.throttled === 2);
    clock.advance(399);
    assert.equal(connection.stats.submitsSent, 2, 'twice as long after the second');
    clock.advance(1);
    assert.equal(connection.stats.submitsSent, 3);
    assert.deepEqual(await answer, { kind: 'answered', status: 0, messageId: 'ok' });
    assert.equal(smsc.submits.length, 3);
    assert.equal(connection.stats.throttled, 2);
  });

  it('gives up with "throttled" when throttling outlasts the deadline', async () => {
    const smsc = await scriptedSmsc((pdu, session) => session.send(pdu.response({ command_status: STATUS.ESME_RMSGQFUL })));
    const connection = open(smsc.port);
    const answer = connection.submit({ destination_addr: '1' }, deadline(300));
    await until(() => connection.stats.throttled === 1);
    clock.advance(200);
    await until(() => connection.stats.throttled === 2);
    // Answered at 200 ms, before the deadline: the next try would be at 600 ms, past it.
    clock.advance(400);
    assert.deepEqual(await answer, { kind: 'throttled' });
    assert.equal(connection.stats.submitsSent, 2, 'not sent again past its deadline');
  });

  it('resets a connection whose answers stop coming, and keeps it alive with enquire_link when idle', async () => {
    let answer = false;
    const smsc = await scriptedSmsc((pdu, session) => {
      if (answer) session.send(pdu.response({ message_id: 'late' }));
    });
    // The watchdog looks every 50 ms, a quarter of the response timeout.
    const connection = open(smsc.port, { responseTimeoutMs: 200, enquireLinkMs: 300 });
    const pending = connection.submit({ destination_addr: '1' }, deadline());
    await until(() => smsc.submits.length === 1);
    clock.advance(200);
    assert.equal(connection.stats.timeouts, 0, 'an answer may take responseTimeoutMs');
    clock.advance(50);
    assert.equal(connection.stats.timeouts, 1);
    answer = true;
    await until(() => connection.stats.disconnects === 1);
    clock.advance(FIRST_RECONNECT_LATEST_MS);
    assert.equal((await pending).kind, 'answered', 'sent again on the new connection');
    assert.equal(smsc.enquireLinks, 0, 'never idle for enquireLinkMs so far');
    // Idle from the answer on: the first look past enquireLinkMs sends one.
    clock.advance(300 + 50);
    await until(() => smsc.enquireLinks === 1);
    assert.equal(connection.state, 'bound');
  });

  it('refuses requests it does not handle without dropping the bind, and never answers alert_notification', async () => {
    const smsc = await scriptedSmsc(() => undefined);
    const connection = open(smsc.port);
    await until(() => connection.state === 'bound');
    const session = smsc.sessions[0]!;
    const answers: Pdu[] = [];
    session.on('pdu', (received: Pdu) => received.isResponse() && answers.push(received));
    session.send(pdu('alert_notification', { source_addr: '1', esme_addr: '2' }));
    session.send(pdu('replace_sm', { message_id: 'x', short_message: Buffer.from('y') }));
    session.send(pdu('outbind', { system_id: 'a', password: 'b' }));
    // Answers come back in order: once this one is in, so is any answer to what went before.
    session.send(pdu('enquire_link'));
    await until(() => answers.some((a) => a.command === 'enquire_link_resp'));
    assert.deepEqual(answers.map((a) => [a.command, a.command_status]), [
      ['replace_sm_resp', STATUS.ESME_RINVCMDID],
      ['generic_nack', STATUS.ESME_RINVCMDID],
      ['enquire_link_resp', STATUS.ESME_ROK],
    ]);
    assert.equal(connection.state, 'bound');
  });

  it('answers a submit the codec cannot write as an invalid PDU, and goes on with the next', async () => {
    const smsc = await scriptedSmsc((pdu, session) => session.send(pdu.response({ message_id: 'fine' })));
    const connection = open(smsc.port);
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
    const connection = open(smsc.port);
    const failedAttempts = (): number => connection.stats.disconnects + connection.stats.connectFailures;
    const answer = connection.submit({ destination_addr: '1' }, deadline(200));
    await until(() => failedAttempts() === 1);
    clock.advance(FIRST_RECONNECT_LATEST_MS);
    await until(() => failedAttempts() === 2);
    // The watchdog ends queued submits past their deadline at its next look (every second here).
    clock.advance(1000);
    assert.deepEqual(await answer, { kind: 'unsent' });
    assert.ok(failedAttempts() >= 2, 'it tried again after its back-off');
    assert.equal(connection.stats.binds, 0);
    assert.notEqual(connection.state, 'bound');
  });

  it('gives up a connection not established within connectTimeoutMs, and tries again after its back-off', async () => {
    // Plain TCP that never answers the TLS handshake: the connection is never established.
    const sockets: Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      const closed = new Promise<void>((resolve) => silent.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    });
    const connection = open((silent.address() as AddressInfo).port, { tls: { rejectUnauthorized: false }, connectTimeoutMs: 10_000 });
    await until(() => sockets.length === 1);
    clock.advance(9_999);
    await afterPendingCallbacks();
    assert.equal(connection.stats.connectFailures, 0);
    clock.advance(1);
    await until(() => connection.stats.connectFailures === 1);
    assert.equal(connection.state, 'down');
    clock.advance(FIRST_RECONNECT_LATEST_MS);
    await until(() => sockets.length === 2);
  });

  it('stops after waiting a second for unbind_resp when the SMSC does not answer unbind', async () => {
    const smsc = await scriptedSmsc(() => undefined);
    smsc.answersUnbind = false;
    const connection = open(smsc.port);
    await until(() => connection.state === 'bound');
    let stopped = false;
    void connection.stop().then(() => void (stopped = true));
    await until(() => smsc.unbinds === 1);
    clock.advance(999);
    await afterPendingCallbacks();
    assert.equal(stopped, false);
    clock.advance(1);
    await until(() => stopped);
  });
});
