import assert from 'node:assert/strict';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { ERROR, STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import type { Store, StoredMessage } from '../../../src/core/store/types.js';
import type { CarrierReceipt, OutboundMessage, SubmitOutcome } from '../../../src/network/carrier.js';
import type { SandboxRule } from '../../../src/network/sandbox/rules.js';
import { SandboxNetwork } from '../../../src/network/sandbox/sandbox-network.js';
import { T0, cleanupStores, insertAll, newMessage, storeDrivers, storePerTest } from '../../helpers/stores.js';
import { eventually, settle, silentLogger } from '../../core/pipeline/pipeline-fixture.js';

after(cleanupStores);

let ACCOUNT = '';
let OTHER = '';
let nextPk = 1;

function sms(destination: string, overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    accountId: ACCOUNT,
    pk: nextPk++,
    messageId: `m-${nextPk}`,
    sender: 'ACME',
    destination,
    content: { text: 'hello' },
    encoding: 'GSM7',
    messageCount: 1,
    validUntil: T0 + 3_600_000,
    flash: false,
    attempts: 1,
    ...overrides,
  };
}

/** The messages, stored first (a phone lists the messages it received from the store), with their pks. */
async function storedSms(store: Store, messages: OutboundMessage[]): Promise<OutboundMessage[]> {
  const rows = messages.map((m) => {
    const row = newMessage(m.accountId, { messageId: m.messageId, destination: m.destination, content: m.content, encoding: m.encoding });
    if (m.sender !== undefined) row.sender = m.sender;
    return row;
  });
  const pks = await insertAll(store, rows);
  return messages.map((m, i) => ({ ...m, pk: pks[i]! }));
}

const accepted = (outcome: SubmitOutcome): string => {
  assert.ok(outcome.ok, 'expected the sandbox to accept the message');
  return outcome.carrierMessageId;
};

for (const driver of storeDrivers()) {
  describe(`SandboxNetwork (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    let clock: ManualClock;
    let sandbox: SandboxNetwork;
    let received: CarrierReceipt[];

    const open = async (options: { latencyMs?: number; rules?: SandboxRule[] } = {}): Promise<SandboxNetwork> => {
      sandbox = new SandboxNetwork({ store: store(), clock, log: silentLogger(), latencyMs: options.latencyMs ?? 1000, rules: options.rules ?? [], tickMs: 5 });
      await sandbox.start({ receipts: async (carrier, receipts) => {
        assert.equal(carrier, 'sandbox');
        received.push(...receipts);
      }, inbound: async () => {}, inboundPart: async () => {}, rcs: { seen: async () => [], inbound: async () => [] } });
      return sandbox;
    };

    beforeEach(async () => {
      clock = new ManualClock(T0);
      received = [];
      ACCOUNT = (await store().accounts.ensure('acme', T0)).id;
      OTHER = (await store().accounts.ensure('other', T0)).id;
    });
    afterEach(async () => {
      await sandbox?.stop();
    });

    it('accepts, reports PENDING_ENROUTE at once and the final receipt after the latency of clock time', async () => {
      await open({ latencyMs: 1000 });
      const [outcome] = await sandbox.submit([sms('41793026727')]);
      const id = accepted(outcome!);
      await eventually(async () => (received.length === 1 ? true : undefined));
      assert.deepEqual(received[0], { carrierMessageId: id, status: ref(STATUS.PENDING_ENROUTE), errorId: 0, final: false, at: T0 });

      clock.advance(999);
      await settle(40);
      assert.equal(received.length, 1);
      clock.advance(1);
      await eventually(async () => (received.length === 2 ? true : undefined));
      assert.deepEqual(received[1], { carrierMessageId: id, status: ref(STATUS.DELIVERED_TO_HANDSET), errorId: 0, final: true, at: T0 + 1000 });
    });

    it('sets a clock timer only while a receipt waits, for the earliest one', async () => {
      await open({ latencyMs: 1000 });
      assert.equal(clock.pendingTimers, 0, 'an idle network sets no timer');
      const [first] = await sandbox.submit([sms('41793026727')]);
      await eventually(async () => (received.length === 1 ? true : undefined));
      clock.advance(500);
      const [second] = await sandbox.submit([sms('41793026728')]);
      await eventually(async () => (received.length === 2 ? true : undefined));
      assert.equal(clock.pendingTimers, 1);
      clock.advance(500);
      await eventually(async () => (received.filter((r) => r.final).length === 1 ? true : undefined));
      assert.equal(received.find((r) => r.final)!.carrierMessageId, accepted(first!));
      assert.equal(clock.pendingTimers, 1, 'the next receipt is waited for');
      clock.advance(500);
      await eventually(async () => (received.filter((r) => r.final).length === 2 ? true : undefined));
      assert.equal(received.filter((r) => r.final)[1]!.carrierMessageId, accepted(second!));
      assert.equal(clock.pendingTimers, 0);
    });

    it('with zero latency gives the final outcome with the submit, and no receipt follows', async () => {
      await open({ latencyMs: 0 });
      const delivered = sms('41793026727');
      const outcomes = await sandbox.submit([delivered, sms('41790009001')]);
      const settledOf = (outcome: SubmitOutcome) => (outcome.ok ? outcome.settled : undefined);
      const phone = { number: '41793026727', at: T0 };
      assert.deepEqual(settledOf(outcomes[0]!), { status: ref(STATUS.DELIVERED_TO_HANDSET), errorId: 0, at: T0, phone });
      assert.deepEqual(settledOf(outcomes[1]!), { status: ref(STATUS.UNDELIVERABLE_NOT_DELIVERED), errorId: ERROR.EC_ABSENT_SUBSCRIBER_SM.id, at: T0 });
      // The phone's copy travels with the outcome: the pipeline stores both in one write.
      assert.deepEqual(await store().phones.list(ACCOUNT, '41793026727', 10), []);
      clock.advance(60_000);
      await settle(30);
      assert.equal(received.length, 0);
      assert.equal(sandbox.pendingReceipts, 0);
    });

    it('with a latency gives no outcome with the submit: receipts report it', async () => {
      await open({ latencyMs: 1 });
      const [outcome] = await sandbox.submit([sms('41793026727')]);
      assert.equal(outcome!.ok && outcome!.settled, undefined);
    });

    it('records only delivered messages in the phone inbox, binary as hex', async () => {
      await open();
      await sandbox.submit(
        await storedSms(store(), [
          sms('+41790001111', { content: { text: 'your code is 123456' }, messageId: 'text-1' }),
          sms('41790002222', { content: { hex: '0048 0065' }, encoding: 'BINARY', sender: undefined }),
          sms('41790009001'),
          sms('41790009004'),
        ]),
      );
      const [text] = await store().phones.list(ACCOUNT, '41790001111', 10);
      assert.deepEqual(
        { channel: text!.channel, from: text!.from, text: text!.text, messageId: text!.messageId, receivedAt: text!.receivedAt },
        { channel: 'SMS', from: 'ACME', text: 'your code is 123456', messageId: 'text-1', receivedAt: T0 },
      );
      const [binary] = await store().phones.list(ACCOUNT, '41790002222', 10);
      assert.equal(binary!.text, '0048 0065');
      assert.equal(binary!.from, undefined);
      assert.equal((await store().phones.list(ACCOUNT, '41790009001', 10)).length, 0);
      assert.equal((await store().phones.list(ACCOUNT, '41790009004', 10)).length, 0);
    });

    it('9004 never sends any receipt', async () => {
      await open({ latencyMs: 0 });
      const [outcome] = await sandbox.submit([sms('41790009004')]);
      accepted(outcome!);
      clock.advance(86_400_000);
      await settle(40);
      assert.equal(received.length, 0);
      assert.equal(sandbox.pendingReceipts, 0);
    });

    it('rules come before the built-in table, account rules before file rules, first match wins', async () => {
      await open({
        latencyMs: 0,
        rules: [
          { match: { suffix: '9001' }, outcome: 'DELIVERED' },
          { match: { prefix: '44' }, outcome: 'REJECTED', status: 'REJECTED_DESTINATION', error: 'EC_INVALID_DESTINATION_ADDRESS' },
        ],
      });
      sandbox.setRules(ACCOUNT, [
        { match: { number: '447700900123' }, outcome: 'UNDELIVERABLE' },
        { match: { number: '447700900123' }, outcome: 'EXPIRED' },
      ]);
      const outcomes = await sandbox.submit([sms('41790009001'), sms('447700900999'), sms('+447700900123'), sms('447700900123', { accountId: OTHER })]);
      const finals = outcomes.map((outcome) => {
        assert.ok(outcome.ok && outcome.settled, 'expected the outcome with the submit at zero latency');
        return outcome.settled;
      });
      assert.deepEqual(finals[0]!.status, ref(STATUS.DELIVERED_TO_HANDSET));
      assert.deepEqual(finals[1]!.status, ref(STATUS.REJECTED_DESTINATION));
      assert.equal(finals[1]!.errorId, ERROR.EC_INVALID_DESTINATION_ADDRESS.id);
      assert.deepEqual(finals[2]!.status, ref(STATUS.UNDELIVERABLE_NOT_DELIVERED));
      assert.equal(finals[2]!.errorId, ERROR.EC_ABSENT_SUBSCRIBER_SM.id);
      // Another account does not see this account's rules: the file rule for 44… applies.
      assert.deepEqual(finals[3]!.status, ref(STATUS.REJECTED_DESTINATION));
      assert.deepEqual(sandbox.rulesFor(OTHER), []);
    });

    it('a rule latency replaces the default latency', async () => {
      await open({ latencyMs: 10_000, rules: [{ match: { suffix: '42' }, outcome: 'DELIVERED', latencyMs: 50 }] });
      await sandbox.submit([sms('41790000042')]);
      clock.advance(50);
      await eventually(async () => (received.some((r) => r.final) ? true : undefined));
      assert.equal(received.find((r) => r.final)!.at, T0 + 50);
    });

    it('REFUSED and THROTTLED answer at submit without receipts', async () => {
      await open({
        latencyMs: 0,
        rules: [
          { match: { suffix: '1' }, outcome: 'REFUSED' },
          { match: { suffix: '2' }, outcome: 'THROTTLED' },
        ],
      });
      const [refused, throttled] = await sandbox.submit([sms('41790000001'), sms('41790000002')]);
      assert.deepEqual(refused, {
        pk: refused!.pk, accountId: ACCOUNT, ok: false, retryable: false,
        status: ref(STATUS.UNDELIVERABLE_REJECTED_OPERATOR), errorId: ERROR.EC_SMS_REJECTED_BY_MOBILE_OPERATOR.id,
      });
      assert.equal(throttled!.ok, false);
      assert.equal(throttled!.ok === false && throttled!.retryable, true);
      await settle(30);
      assert.equal(received.length, 0);
    });

    it('resume schedules the final receipt of submitted messages again, at sentAt + latency', async () => {
      await open({ latencyMs: 1000 });
      const stored = (destination: string, carrierMessageId: string, sentAt: number): StoredMessage => ({
        ...newMessage(ACCOUNT, { destination, state: 'queued' }),
        pk: nextPk++,
        state: 'submitted',
        carrier: 'sandbox',
        carrierMessageId,
        sentAt,
        attempts: 1,
      });
      clock.set(T0 + 500);
      await sandbox.resume([stored('41790001111', 'a', T0), stored('41790009003', 'b', T0 - 5000), stored('41790009004', 'c', T0)]);
      await eventually(async () => (received.length === 1 ? true : undefined));
      assert.deepEqual(received[0], { carrierMessageId: 'b', status: ref(STATUS.REJECTED_NETWORK), errorId: ERROR.EC_OPERATOR_NOT_FOUND.id, final: true, at: T0 + 500 });
      clock.set(T0 + 1000);
      await eventually(async () => (received.length === 2 ? true : undefined));
      assert.deepEqual(received[1]!.carrierMessageId, 'a');
      assert.equal(received[1]!.at, T0 + 1000);
      await settle(30);
      assert.equal(received.length, 2);
    });

    it('after stop it emits nothing and refuses submits as retryable', async () => {
      await open({ latencyMs: 100 });
      await sandbox.submit([sms('41793026727')]);
      await eventually(async () => (received.length === 1 ? true : undefined));
      await sandbox.stop();
      clock.advance(1000);
      await settle(30);
      assert.equal(received.length, 1);
      const [outcome] = await sandbox.submit([sms('41793026727')]);
      assert.equal(outcome!.ok === false && outcome!.retryable, true);
    });
  });
}
