import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ESM_CLASS } from '../../../src/network/smpp/codec.js';
import { encodeGsm7 } from '../../../src/sms/encoding/index.js';
import { childApi, startChildServer, type ChildApi, type ChildServer } from '../../helpers/child-server.js';
import { eventually, removeTestEnv, startTestServer, testEnv, type TestServer } from '../../helpers/server.js';
import { startSmsc, type TestSmsc } from '../../helpers/smsc.js';

/**
 * Long messages and concatenated inbound messages over SMPP, one node, on whichever store the run
 * uses: part receipts and inbound parts on other binds than expected, and a kill -9 between parts.
 */

const LONG = `${'A message long enough for three parts. '.repeat(10)}End.`;

interface LogEntry {
  messageId: string;
  messageCount: number;
  status: { groupName: string; name: string };
  error: { name: string };
}

const stops: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const stop of stops.reverse()) await stop();
});

async function smsc(options: Parameters<typeof startSmsc>[0] = {}): Promise<TestSmsc> {
  const started = await startSmsc(options);
  stops.push(() => started.stop());
  return started;
}

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any }>;

const viaTestServer = (server: TestServer): Call => async (method, path, body) => {
  const response = await server.request(method, path, body === undefined ? {} : { body });
  return { status: response.status, json: response.text ? response.json() : undefined };
};

async function send(call: Call | ChildApi, to: string, text = LONG): Promise<string> {
  const response = await call('POST', '/sms/3/messages', { messages: [{ sender: 'Switchboard', destinations: [{ to }], content: { text } }] });
  assert.equal(response.status, 200);
  return response.json.messages[0].messageId as string;
}

async function finalLog(call: Call | ChildApi, messageId: string, timeoutMs = 10_000): Promise<LogEntry> {
  return eventually(async () => {
    const entry = (await call('GET', `/sms/3/logs?messageId=${messageId}`)).json.results[0] as LogEntry | undefined;
    return entry && !['PENDING', 'ACCEPTED'].includes(entry.status.groupName) ? entry : undefined;
  }, timeoutMs);
}

/** Every inbound message pulled until `count` have come. */
async function inbox(call: Call | ChildApi, count: number): Promise<Array<{ from: string; text: string; smsCount: number }>> {
  const all: Array<{ from: string; text: string; smsCount: number }> = [];
  await eventually(async () => {
    all.push(...(await call('GET', '/sms/1/inbox/reports')).json.results);
    return all.length >= count ? true : undefined;
  }, 10_000);
  return all;
}

/** One part of a concatenated GSM text as a deliver_sm (8-bit UDH reference). */
const inboundPart = (from: string, reference: number, total: number, seq: number, text: string): Record<string, unknown> => ({
  source_addr_ton: 1,
  source_addr_npi: 1,
  source_addr: from,
  dest_addr_ton: 1,
  dest_addr_npi: 1,
  destination_addr: '447860099299',
  esm_class: ESM_CLASS.UDHI,
  data_coding: 0,
  short_message: Buffer.concat([Buffer.from([5, 0x00, 3, reference, total, seq]), Buffer.from(encodeGsm7(text))]),
});

describe('long messages and inbound parts over SMPP, one node', () => {
  it("matches each part's receipt however the SMSC spreads them over the binds, and ends each message by all of its parts", async () => {
    const sim = await smsc({ receiptsOnOtherBind: true, receiptDelayMs: 20 });
    const server = await startTestServer({ env: { SWITCHBOARD_SMPP_URL: sim.url('binds=2') } });
    stops.push(() => server.close());
    const call = viaTestServer(server);
    await eventually(async () => (sim.sim.stats().binds === 2 ? true : undefined));
    const delivered = await Promise.all(Array.from({ length: 6 }, (_, i) => send(call, `4179302${String(7000 + i).padStart(4, '0')}`)));
    const failed = await send(call, '41793029001');
    for (const id of delivered) {
      const log = await finalLog(call, id);
      assert.deepEqual([log.messageCount, log.status.name], [3, 'DELIVERED_TO_HANDSET'], id);
    }
    const failure = await finalLog(call, failed);
    assert.deepEqual([failure.status.name, failure.error.name], ['UNDELIVERABLE_NOT_DELIVERED', 'EC_UNKNOWN_SUBSCRIBER']);
    const reports = (await call('GET', '/sms/3/reports')).json.results as Array<{ messageId: string }>;
    assert.deepEqual(reports.map((r) => r.messageId).sort(), [...delivered, failed].sort(), 'one report per message');
  });

  it('makes each inbound message whole once, its parts coming over different binds', async () => {
    const sim = await smsc({ spreadInboundParts: true });
    const server = await startTestServer({ env: { SWITCHBOARD_SMPP_URL: sim.url('binds=3') } });
    stops.push(() => server.close());
    await eventually(async () => (sim.sim.stats().binds === 3 ? true : undefined));
    const texts = Array.from({ length: 5 }, (_, i) => `${i}: ${LONG}`);
    await Promise.all(texts.map((text, i) => sim.sim.injectInbound({ from: `4179302610${i}`, to: '447860099299', text })));
    const got = await inbox(viaTestServer(server), texts.length);
    assert.deepEqual(got.map((m) => m.text).sort(), [...texts].sort());
    assert.ok(got.every((m) => m.smsCount === 3));
  });

  it('keeps the receipts of parts and the inbound parts that came before a kill -9, and finishes both after the restart', async () => {
    const sim = await smsc({ rules: [{ suffix: '7777', noReceipt: true }] });
    const env = await testEnv({ SWITCHBOARD_SMPP_URL: sim.url() });
    stops.push(() => removeTestEnv(env));
    let server: ChildServer = await startChildServer(env);
    stops.push(() => server.terminate());
    let call = childApi(server, env.SWITCHBOARD_API_KEY!);
    const messageId = await send(call, '41793027777');
    const partIds = await eventually(async () => sim.sim.received().find((m) => m.to === '41793027777')?.messageIds);
    assert.equal(partIds.length, 3);
    await eventually(async () => ((await call('GET', `/sms/3/logs?messageId=${messageId}`)).json.results[0]?.sentAt ? true : undefined));
    // Parts 1 and 3 report before the kill, each acknowledged once stored; part 1 failed.
    await sim.sim.injectReceipt({ id: partIds[0]!, stat: 'UNDELIV', err: 1 });
    await sim.sim.injectReceipt({ id: partIds[2]!, stat: 'DELIVRD' });
    assert.equal(await sim.sim.injectPdu(inboundPart('41793026100', 9, 2, 1, 'Before the crash, ')), 0);
    await server.kill9();

    server = await startChildServer(env);
    call = childApi(server, env.SWITCHBOARD_API_KEY!);
    assert.equal((await finalLog(call, messageId, 500).catch(() => undefined))?.status.name, undefined, 'still waiting for part 2');
    await eventually(async () => (sim.sim.stats().binds === 1 ? true : undefined));
    await sim.sim.injectReceipt({ id: partIds[1]!, stat: 'DELIVRD' });
    const log = await finalLog(call, messageId);
    assert.deepEqual([log.status.name, log.error.name], ['UNDELIVERABLE_NOT_DELIVERED', 'EC_UNKNOWN_SUBSCRIBER'], 'the failure of part 1, though its receipt came before the restart');
    assert.equal(await sim.sim.injectPdu(inboundPart('41793026100', 9, 2, 2, 'after the restart.')), 0);
    const [whole] = await inbox(call, 1);
    assert.deepEqual([whole!.from, whole!.text, whole!.smsCount], ['41793026100', 'Before the crash, after the restart.', 2], 'the part stored before the kill and the one after');
  });
});
