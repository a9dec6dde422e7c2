import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { systemClock } from '../../../src/core/clock.js';
import type { StoredMessage } from '../../../src/core/store/types.js';
import type { CarrierEvents, CarrierReceipt, InboundSms, OutboundSms } from '../../../src/network/carrier.js';
import { SmppCarrier } from '../../../src/network/smpp/smpp-carrier.js';
import { parseSmscUrl } from '../../../src/network/smpp/smsc-url.js';
import { eventually, silentLogger } from '../../core/pipeline/pipeline-fixture.js';
import { startSmsc } from '../../helpers/smsc.js';

const sms = (pk: number, text: string): OutboundSms => ({
  accountId: 'acc',
  pk,
  messageId: `m${pk}`,
  destination: '41793026727',
  content: { text },
  encoding: 'GSM7',
  messageCount: 1,
  validUntil: Date.now() + 60_000,
  flash: false,
  attempts: 1,
});

describe('SmppCarrier against the simulator', () => {
  const stops: Array<() => Promise<void>> = [];
  after(async () => {
    for (const stop of stops) await stop();
  });

  async function open(events: CarrierEvents): Promise<{ carrier: SmppCarrier; smsc: Awaited<ReturnType<typeof startSmsc>> }> {
    const smsc = await startSmsc({ inboundRetryMs: 200 });
    const carrier = new SmppCarrier({
      options: parseSmscUrl(smsc.url(), 'test', { name: 'sim', inboundAccount: 'default' }),
      clock: systemClock,
      log: silentLogger(),
      resolveAccount: async (name) => `id-of-${name}`,
    });
    await carrier.start(events);
    stops.push(async () => {
      await carrier.stop();
      await smsc.stop();
    });
    await eventually(async () => (carrier.available() ? true : undefined));
    return { carrier, smsc };
  }

  it('answers ESME_RX_T_APPN when a receipt or inbound message cannot be stored, and takes it when the SMSC sends it again', async () => {
    const receipts: CarrierReceipt[] = [];
    const inbound: InboundSms[] = [];
    let failReceipts = 1;
    let failInbound = 1;
    const { carrier, smsc } = await open({
      receipts: async (_carrier, batch) => {
        if (failReceipts-- > 0) throw new Error('store down');
        receipts.push(...batch);
      },
      inbound: async (messages) => {
        if (failInbound-- > 0) throw new Error('store down');
        inbound.push(...messages);
      },
    });
    const [outcome] = await carrier.submit([sms(1, 'x'.repeat(200))]);
    assert.ok(outcome?.ok);
    const carrierMessageId = outcome.ok ? outcome.carrierMessageId : '';
    assert.equal(carrierMessageId.split(' ').length, 2, 'a two-part message has both part ids');
    await eventually(async () => (receipts.length > 0 ? true : undefined), 5000);
    assert.deepEqual(receipts.map((r) => [r.carrierMessageId, r.final]), [[carrierMessageId, true]], 'one final receipt for the message, after the redelivery');

    await smsc.sim.injectInbound({ from: '+41793026727', to: '4412345', text: 'hello' });
    assert.equal(inbound.length, 1);
    assert.deepEqual({ ...inbound[0], receivedAt: 0 }, { accountId: 'id-of-default', from: '41793026727', to: '4412345', text: 'hello', smsCount: 1, receivedAt: 0 });
  });

  it('refuses for good a deliver_sm it cannot read, and keeps the bind', async () => {
    const inbound: InboundSms[] = [];
    const { carrier, smsc } = await open({ receipts: async () => undefined, inbound: async (messages) => void inbound.push(...messages) });
    // A UDH announcing a 16-bit concatenation element that the message is too short to hold.
    const status = await smsc.sim.injectPdu({ source_addr: '1', destination_addr: '2', esm_class: 0x40, data_coding: 0, short_message: Buffer.from([5, 0x08, 4, 0x01]) });
    assert.equal(status, 0x66, 'ESME_RX_R_APPN: do not send it again');
    assert.equal(await smsc.sim.injectPdu({ source_addr: '1', destination_addr: '2', esm_class: 0, data_coding: 0, short_message: Buffer.from('ok') }), 0);
    assert.deepEqual(inbound.map((m) => m.text), ['ok']);
    assert.ok(carrier.available());
  });

  it('rebuilds long messages from their stored carrier ids on resume', async () => {
    const smsc = await startSmsc();
    const restarted = new SmppCarrier({
      options: parseSmscUrl(smsc.url(), 'test', { name: 'sim', inboundAccount: 'default' }),
      clock: systemClock,
      log: silentLogger(),
      resolveAccount: async () => 'acc',
    });
    stops.push(async () => {
      await restarted.stop();
      await smsc.stop();
    });
    const receipts: CarrierReceipt[] = [];
    await restarted.resume([{ carrierMessageId: 'aa bb cc', validUntil: Date.now() + 60_000 } as StoredMessage]);
    await restarted.start({ receipts: async (_c, batch) => void receipts.push(...batch), inbound: async () => undefined });
    await eventually(async () => (restarted.available() ? true : undefined));
    // Parts aa and cc reported before the restart; only bb's receipt comes now.
    await smsc.sim.injectReceipt({ id: 'BB', stat: 'DELIVRD' });
    await eventually(async () => (receipts.length > 0 ? true : undefined));
    assert.deepEqual(receipts.map((r) => [r.carrierMessageId, r.status.id, r.final]), [['aa bb cc', 5, true]]);
  });
});
