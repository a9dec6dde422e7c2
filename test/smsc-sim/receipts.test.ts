import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STATUS, type Pdu } from '../../src/network/smpp/codec.js';
import { parseReceipt } from '../../src/network/smpp/receipt.js';
import type { ManualClock } from '../../src/core/clock.js';
import { advanceUntil, eventually, passDeliveryTick, shortText, simFixture, type Client } from './sim-fixture.js';

const submit = { source_addr_ton: 5, source_addr: 'Shop', dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: '41793026727', registered_delivery: 1, short_message: Buffer.from('Your code is 123456, valid 5 min') };
const RECEIPT_TEXT = /^id:(\S+) sub:001 dlvrd:(00[01]) submit date:\d{10} done date:\d{10} stat:([A-Z]+) err:(\d{3}) text:(.*)$/;

/** Lets the simulator send what is due and waits for the first `count` deliveries to `c`. */
async function receipts(clock: ManualClock, c: Client, count: number): Promise<Pdu[]> {
  passDeliveryTick(clock);
  return eventually(async () => (c.delivered.length >= count ? c.delivered.slice(0, count) : undefined));
}

describe('SMSC simulator: receipts', () => {
  const { simulator, bound } = simFixture();

  it('sends a receipt in text and TLVs, from the destination to the source, with hex ids', async () => {
    const { port, clock } = await simulator();
    const c = await bound(port);
    const id = String((await c.request('submit_sm', submit)).message_id);
    const [receipt] = await receipts(clock, c, 1);
    assert.equal(receipt!.esm_class, 0x04);
    assert.equal(receipt!.source_addr, '41793026727');
    assert.equal(receipt!.source_addr_ton, 1);
    assert.equal(receipt!.destination_addr, 'Shop');
    assert.equal(receipt!.dest_addr_ton, 5);
    const [, textId, dlvrd, stat, err, excerpt] = RECEIPT_TEXT.exec(shortText(receipt!))!;
    assert.deepEqual([textId, dlvrd, stat, err, excerpt], [id, '001', 'DELIVRD', '000', 'Your code is 123456,']);
    assert.equal(receipt!.receipted_message_id, id);
    assert.equal(receipt!.message_state, 2);
    assert.equal(parseReceipt(receipt as unknown as Record<string, unknown>)?.id, id, 'our own connector reads it');
  });

  it('quotes ids in receipts in their own format, in TLVs alone when told', async () => {
    const { port, clock } = await simulator({ idFormat: 'decimal', receiptIdFormat: 'hex', receiptStyle: 'tlv' });
    const c = await bound(port);
    const id = String((await c.request('submit_sm', submit)).message_id);
    assert.match(id, /^\d+$/);
    const [receipt] = await receipts(clock, c, 1);
    assert.equal(receipt!.receipted_message_id, Number(id).toString(16).toUpperCase());
    assert.equal((receipt!.short_message as Buffer).length, 0);
  });

  it('fails by the destination’s last four digits', async () => {
    const { sim, port, clock } = await simulator({ receiptStyle: 'text+tlv' });
    const c = await bound(port);
    const expected = [
      ['41790009001', 'UNDELIV', '001', 5],
      ['41790009002', 'EXPIRED', '000', 3],
      ['41790009003', 'REJECTD', '000', 8],
    ] as const;
    for (const [to] of expected) await c.request('submit_sm', { ...submit, destination_addr: to });
    const byDestination = new Map((await receipts(clock, c, 3)).map((r) => [r.source_addr, r]));
    for (const [to, stat, err, state] of expected) {
      const receipt = byDestination.get(to)!;
      const [, , dlvrd, textStat, textErr] = RECEIPT_TEXT.exec(shortText(receipt))!;
      assert.deepEqual([dlvrd, textStat, textErr, receipt.message_state], ['000', stat, err, state], to);
    }
    assert.equal((await c.request('submit_sm', { ...submit, destination_addr: '41790009004' })).command_status, STATUS.ESME_ROK);
    assert.equal(sim.stats().receiptsPending, 0, '9004: accepted, never a receipt');
    assert.equal((await c.request('submit_sm', { ...submit, destination_addr: '41790009005' })).command_status, STATUS.ESME_RINVDSTADR);
  });

  it('sends receipts only as registered_delivery asks', async () => {
    const { sim, port } = await simulator({ receiptDelayMs: 60_000 });
    const c = await bound(port);
    await c.request('submit_sm', { ...submit, registered_delivery: 0 });
    await c.request('submit_sm', { ...submit, registered_delivery: 2 });
    assert.equal(sim.stats().receiptsPending, 0, 'none asked for, or only on failure and this one succeeds');
    await c.request('submit_sm', { ...submit, registered_delivery: 2, destination_addr: '41790009001' });
    await c.request('submit_sm', { ...submit, registered_delivery: 1 });
    assert.equal(sim.stats().receiptsPending, 2);
  });

  it('lets rules decide outcomes before the built-in table, first match wins', async () => {
    const { sim, port, clock } = await simulator({
      rules: [
        { prefix: '44', suffix: '9001', stat: 'DELIVRD' },
        { prefix: '44', stat: 'UNDELIV', err: 27 },
        { suffix: '77', submitStatus: STATUS.ESME_RSUBMITFAIL },
        { prefix: '33', delayMs: 60_000 },
      ],
    });
    const c = await bound(port);
    assert.equal((await c.request('submit_sm', { ...submit, destination_addr: '4179000077' })).command_status, STATUS.ESME_RSUBMITFAIL);
    for (const to of ['447700009001', '4479000001', '41790009002']) await c.request('submit_sm', { ...submit, destination_addr: to });
    const stats = new Map((await receipts(clock, c, 3)).map((r) => [r.source_addr, RECEIPT_TEXT.exec(shortText(r))!.slice(3, 5).join(' ')]));
    assert.deepEqual(Object.fromEntries(stats), { '447700009001': 'DELIVRD 000', '4479000001': 'UNDELIV 027', '41790009002': 'EXPIRED 000' });
    await c.request('submit_sm', { ...submit, destination_addr: '33612345678' });
    assert.equal(sim.stats().receiptsPending, 1, 'the rule’s own delay');
    clock.advance(60_000 - 1);
    await c.roundTrip();
    assert.equal(c.delivered.length, 3, 'not before its 60 s');
    clock.advance(1);
    assert.equal((await eventually(async () => c.delivered[3])).source_addr, '33612345678');
  });

  it('keeps receipts while no receiver is bound and delivers them once one binds', async () => {
    const { sim, port, clock } = await simulator();
    const tx = await bound(port, 'transmitter');
    await bound(port, 'receiver', 'someone-else');
    const id = String((await tx.request('submit_sm', submit)).message_id);
    // Due, and nobody bound to receive it.
    passDeliveryTick(clock);
    assert.equal(sim.stats().receiptsPending, 1);
    const rx = await bound(port, 'receiver');
    const [receipt] = await receipts(clock, rx, 1);
    assert.equal(receipt!.receipted_message_id, id);
    await eventually(async () => (sim.stats().receiptsSent === 1 ? true : undefined));
  });

  it('spreads receipts over the receivers of the same system id', async () => {
    const { port, clock } = await simulator();
    const tx = await bound(port, 'transmitter');
    const [a, b] = [await bound(port, 'receiver'), await bound(port, 'receiver')];
    for (let i = 0; i < 4; i++) await tx.request('submit_sm', submit);
    passDeliveryTick(clock);
    await eventually(async () => (a.delivered.length + b.delivered.length === 4 ? true : undefined));
    assert.deepEqual([a.delivered.length, b.delivered.length], [2, 2]);
  });

  it('sends each receipt on another bind than the one that submitted, when told, or on that one when it is alone', async () => {
    const { port, clock } = await simulator({ receiptsOnOtherBind: true, intermediate: true });
    const [a, b] = [await bound(port), await bound(port)];
    for (let i = 0; i < 3; i++) await a.request('submit_sm', { ...submit, registered_delivery: 0x11 });
    await b.request('submit_sm', submit);
    passDeliveryTick(clock);
    await eventually(async () => (a.delivered.length + b.delivered.length === 7 ? true : undefined));
    assert.deepEqual([a.delivered.length, b.delivered.length], [1, 6], "a's three notifications and receipts on b, b's receipt on a");
    b.session.destroy();
    await b.closed();
    await a.request('submit_sm', submit);
    passDeliveryTick(clock);
    await eventually(async () => (a.delivered.length === 2 ? true : undefined));
  });

  it('sends an ENROUTE notification before the final receipt when intermediate is on and the submit asks', async () => {
    const { port, clock } = await simulator({ intermediate: true });
    const c = await bound(port);
    await c.request('submit_sm', submit);
    // An ENROUTE would come before the final receipt: registered_delivery 1 asks for the final one only.
    assert.equal((await receipts(clock, c, 1))[0]!.esm_class, 0x04);
    const id = String((await c.request('submit_sm', { ...submit, registered_delivery: 0x11 })).message_id);
    const [first, last] = (await receipts(clock, c, 3)).slice(1);
    assert.equal(first!.esm_class, 0x20);
    assert.equal(first!.message_state, 1);
    assert.match(shortText(first!), new RegExp(`^id:${id} .*stat:ENROUTE`));
    assert.equal(last!.esm_class, 0x04);
    assert.equal(last!.message_state, 2);
  });

  it('delivers a receipt again when the ESME refuses it or never answers', async () => {
    // A refused delivery goes again a second later; an unanswered one after inboundRetryMs (a minute
    // here, which the clock does not reach before the refused one has gone again twice).
    const { sim, port, clock } = await simulator({ inboundRetryMs: 60_000 });
    const refusing = await bound(port);
    refusing.answerStatus = STATUS.ESME_RX_T_APPN;
    await refusing.request('submit_sm', submit);
    const started = clock.now();
    passDeliveryTick(clock);
    // When the refusal reaches the simulator is up to the sockets, so time moves in steps until then.
    await advanceUntil(clock, 250, () => (refusing.delivered.length >= 2 ? true : undefined));
    assert.equal(sim.stats().receiptsSent, 0);
    refusing.answerStatus = STATUS.ESME_ROK;
    await advanceUntil(clock, 250, () => (sim.stats().receiptsSent === 1 ? true : undefined));
    assert.ok(clock.now() - started < 60_000, 'sent again as refused, not as unanswered');

    const silent = await bound(port, 'transceiver', 'silent');
    silent.session.removeAllListeners('deliver_sm');
    const seen: Pdu[] = [];
    silent.session.on('deliver_sm', (request: Pdu) => seen.push(request));
    await silent.request('submit_sm', submit);
    passDeliveryTick(clock);
    await eventually(async () => (seen.length === 1 ? true : undefined));
    clock.advance(60_000 - 1);
    await silent.roundTrip();
    assert.equal(seen.length, 1, 'not again before inboundRetryMs');
    clock.advance(1);
    await eventually(async () => (seen.length === 2 ? true : undefined));
    assert.equal(seen[0]!.receipted_message_id, seen[1]!.receipted_message_id);
    assert.equal(sim.stats().receiptsPending, 1);
  });

  it('quotes the start of the message in the receipt text as Latin-1', async () => {
    const { port, clock } = await simulator({ receiptStyle: 'text' });
    const c = await bound(port);
    await c.request('submit_sm', { ...submit, data_coding: 8, short_message: Buffer.from('\u041f\u0440\u0438\u0432\u0435\u0442 caf\u00e9', 'utf16le').swap16() });
    const [receipt] = await receipts(clock, c, 1);
    assert.equal(RECEIPT_TEXT.exec(shortText(receipt!))![5], '?????? caf\u00e9');
    assert.equal(receipt!.receipted_message_id, undefined);
  });
});
