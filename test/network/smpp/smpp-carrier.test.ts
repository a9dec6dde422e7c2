import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { ERROR, ref, STATUS } from '../../../src/core/pipeline/statuses.js';
import type { CarrierEvents, CarrierReceipt, InboundSms, InboundSmsPart, OutboundMessage, SubmitOutcome } from '../../../src/network/carrier.js';
import { SmppCarrier } from '../../../src/network/smpp/smpp-carrier.js';
import { parseSmscUrl } from '../../../src/network/smpp/smsc-url.js';
import type { SmscSimulatorOptions } from '../../../src/smsc-sim/simulator.js';
import { eventually, silentLogger } from '../../core/pipeline/pipeline-fixture.js';
import { advanceUntil, advanceUntilSettled } from '../../helpers/clock-driving.js';
import { delivered, startSmsc, type TestSmsc } from '../../helpers/smsc.js';

/** The carrier and the simulator share one ManualClock in every test; sockets stay real. */

const sms = (pk: number, text: string, now: number): OutboundMessage => ({
  accountId: 'acc',
  pk,
  messageId: `m${pk}`,
  destination: '41793026727',
  content: { text },
  encoding: 'GSM7',
  messageCount: 1,
  validUntil: now + 60_000,
  flash: false,
  attempts: 1,
});

const RETRY_LATER: SubmitOutcome = { pk: 1, accountId: 'acc', ok: false, retryable: true, status: ref(STATUS.PENDING_ENROUTE), errorId: ERROR.NO_ERROR.id };

const ignoreEvents: CarrierEvents = { receipts: async () => undefined, inbound: async () => undefined, inboundPart: async () => undefined };

/** Lets callbacks already queued run (a promise settled by a timer that just fired). */
const afterPendingCallbacks = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SmppCarrier against the simulator', () => {
  const stops: Array<() => Promise<void>> = [];
  after(async () => {
    for (const stop of stops) await stop();
  });

  function carrierFor(smsc: TestSmsc, clock: ManualClock): SmppCarrier {
    const carrier = new SmppCarrier({
      options: parseSmscUrl(smsc.url(), 'test', { name: 'sim', inboundAccount: 'default' }),
      clock,
      log: silentLogger(),
      resolveAccount: async (name) => `id-of-${name}`,
    });
    stops.push(async () => {
      await carrier.stop();
      await smsc.stop();
    });
    return carrier;
  }

  async function open(events: CarrierEvents, clock: ManualClock, simulator: Partial<SmscSimulatorOptions> = {}): Promise<{ carrier: SmppCarrier; smsc: TestSmsc }> {
    const smsc = await startSmsc({ inboundRetryMs: 200, ...simulator }, clock);
    const carrier = carrierFor(smsc, clock);
    await carrier.start(events);
    await eventually(async () => (carrier.available() ? true : undefined));
    return { carrier, smsc };
  }

  it('answers ESME_RX_T_APPN when a receipt or inbound message cannot be stored, and takes it when the SMSC sends it again', async () => {
    const clock = new ManualClock();
    const receipts: CarrierReceipt[] = [];
    const inbound: InboundSms[] = [];
    let failReceipts = 1;
    let failInbound = 1;
    const { carrier, smsc } = await open(
      {
        receipts: async (_carrier, batch) => {
          if (failReceipts-- > 0) throw new Error('store down');
          receipts.push(...batch);
        },
        inbound: async (messages) => {
          if (failInbound-- > 0) throw new Error('store down');
          inbound.push(...messages);
        },
        inboundPart: async () => undefined,
      },
      clock,
    );
    const [outcome] = await carrier.submit([sms(1, 'x'.repeat(200), clock.now())]);
    assert.ok(outcome?.ok);
    const partIds = outcome.ok ? (outcome.partIds ?? []) : [];
    assert.equal(partIds.length, 2, 'a two-part message has both part ids');
    assert.equal(outcome.ok && outcome.carrierMessageId, partIds.join(' '));
    // The simulator sends a refused receipt again 200 ms after the refusal reaches it, which is up to
    // the sockets: the clock moves in steps until it has come.
    await advanceUntil(clock, 50, () => (receipts.length === 2 ? true : undefined));
    assert.deepEqual(
      receipts.map((r) => [r.carrierMessageId, r.final]).sort(),
      partIds.map((id) => [id, true]).sort(),
      "each part's receipt under its own id, the refused one after its redelivery",
    );

    const injectedAt = clock.now();
    await advanceUntilSettled(clock, 50, smsc.sim.injectInbound({ from: '+41793026727', to: '4412345', text: 'hello' }));
    assert.equal(inbound.length, 1);
    const [message] = inbound;
    assert.deepEqual({ ...message, receivedAt: 0 }, { accountId: 'id-of-default', from: '41793026727', to: '4412345', text: 'hello', smsCount: 1, receivedAt: 0 });
    assert.ok(message!.receivedAt >= injectedAt + 200 && message!.receivedAt <= clock.now(), 'received, by the clock, when it came again');
  });

  it('refuses for good a deliver_sm it cannot read, and keeps the bind', async () => {
    const clock = new ManualClock();
    const inbound: InboundSms[] = [];
    const { carrier, smsc } = await open({ receipts: async () => undefined, inbound: async (messages) => void inbound.push(...messages), inboundPart: async () => undefined }, clock);
    // A UDH announcing a 16-bit concatenation element that the message is too short to hold.
    const status = await delivered(clock, smsc.sim.injectPdu({ source_addr: '1', destination_addr: '2', esm_class: 0x40, data_coding: 0, short_message: Buffer.from([5, 0x08, 4, 0x01]) }));
    assert.equal(status, 0x66, 'ESME_RX_R_APPN: do not send it again');
    assert.equal(await delivered(clock, smsc.sim.injectPdu({ source_addr: '1', destination_addr: '2', esm_class: 0, data_coding: 0, short_message: Buffer.from('ok') })), 0);
    assert.deepEqual(inbound.map((m) => m.text), ['ok']);
    assert.ok(carrier.available());
  });

  it('hands each part of a concatenated inbound message on as it comes, and acknowledges it once stored', async () => {
    const clock = new ManualClock();
    const parts: InboundSmsPart[] = [];
    let failParts = 1;
    const { smsc } = await open(
      {
        receipts: async () => undefined,
        inbound: async () => assert.fail('the parts of a long message come one by one'),
        inboundPart: async (part) => {
          if (failParts-- > 0) throw new Error('store down');
          parts.push(part);
        },
      },
      clock,
    );
    const text = `${'A long reply from the handset. '.repeat(8)}Bye`;
    await advanceUntilSettled(clock, 50, smsc.sim.injectInbound({ from: '+41793026727', to: '4412345', text }));
    assert.equal(parts.length, 2, 'both parts, the refused one once sent again');
    const [first, second] = [...parts].sort((a, b) => a.seq - b.seq);
    assert.deepEqual([first!.seq, second!.seq, first!.total, second!.total], [1, 2, 2, 2]);
    assert.equal(first!.reference, second!.reference);
    assert.deepEqual([first!.accountId, first!.from, first!.to], ['id-of-default', '41793026727', '4412345']);
    assert.equal(first!.text + second!.text, text);
  });

  it('reports itself unavailable for five seconds after a temporary error, so routes fail over', async () => {
    const clock = new ManualClock();
    const { carrier } = await open(ignoreEvents, clock, { faults: { rejectNext: { count: 1, status: 0x08 } } });
    assert.deepEqual(await carrier.submit([sms(1, 'x', clock.now())]), [RETRY_LATER], 'ESME_RSYSERR: try again later');
    assert.equal(carrier.available(), false);
    clock.advance(4_999);
    assert.equal(carrier.available(), false);
    clock.advance(1);
    assert.equal(carrier.available(), true);
  });

  it('gives a message back to be retried when it cannot be submitted within the deadline', async () => {
    const clock = new ManualClock();
    const smsc = await startSmsc({ faults: { refuseBinds: true } }, clock);
    const carrier = carrierFor(smsc, clock);
    await carrier.start(ignoreEvents);
    let settled = false;
    const outcomes = carrier.submit([sms(1, 'x', clock.now())]).finally(() => void (settled = true));
    clock.advance(4_999);
    await afterPendingCallbacks();
    assert.equal(settled, false, 'waits up to its deadline (5 s) for a bind');
    // The binds look for submits past their deadline once a second.
    clock.advance(1_000);
    assert.deepEqual(await outcomes, [RETRY_LATER]);
    assert.equal(carrier.available(), false, 'no bind');
  });
});
