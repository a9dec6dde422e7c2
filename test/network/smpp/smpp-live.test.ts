import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { eventually, startTestServer, type TestServer } from '../../helpers/server.js';
import { passDeliveryTick, startSmsc, type TestSmsc } from '../../helpers/smsc.js';

/** HTTP → Switchboard → SMPP → simulator → receipt → the message's log, over real sockets. */

interface LogEntry {
  messageId: string;
  messageCount: number;
  status: { groupName: string; name: string };
  error: { id: number; name: string };
}

async function send(server: TestServer, to: string, content: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await server.request('POST', '/sms/3/messages', {
    body: { messages: [{ sender: 'Switchboard', destinations: [{ to }], content, ...extra }] },
  });
  assert.equal(response.status, 200, response.text);
  return response.json().messages[0].messageId as string;
}

async function finalLog(server: TestServer, messageId: string, timeoutMs = 8000): Promise<LogEntry> {
  return eventually(async () => {
    const response = await server.request('GET', `/sms/3/logs?messageId=${messageId}`);
    const entry = response.json().results[0] as LogEntry | undefined;
    return entry && !['PENDING', 'ACCEPTED'].includes(entry.status.groupName) ? entry : undefined;
  }, timeoutMs);
}

/** A server sending through `smsc`: on the system clock, as in production, unless given a ManualClock to share with the simulator. */
async function withLive<T>(smsc: TestSmsc, query: string, work: (server: TestServer) => Promise<T>, scheme: 'smpp' | 'smpps' = 'smpp', clock?: ManualClock): Promise<T> {
  const server = await startTestServer({ env: { SWITCHBOARD_SMPP_URL: smsc.url(query, scheme) }, ...(clock ? { clock } : {}) });
  try {
    return await work(server);
  } finally {
    await server.close();
  }
}

const stops: Array<() => Promise<void>> = [];
after(async () => {
  for (const stop of stops) await stop();
});

async function smsc(options: Parameters<typeof startSmsc>[0] = {}, clock?: ManualClock): Promise<TestSmsc> {
  const started = await startSmsc(options, clock);
  stops.push(() => started.stop());
  return started;
}

describe('live SMS over SMPP', () => {
  for (const mode of ['transceiver', 'transmitter+receiver']) {
    it(`delivers through a ${mode} bind and records the receipt`, async () => {
      const sim = await smsc();
      await withLive(sim, `mode=${encodeURIComponent(mode)}&binds=2`, async (server) => {
        const connections = mode === 'transceiver' ? { transceiver: 2 } : { transmitter: 2, receiver: 2 };
        await eventually(async () => (sim.sim.stats().binds === (mode === 'transceiver' ? 2 : 4) ? true : undefined));
        assert.deepEqual(sim.sim.stats().bindsByMode, connections);
        const messageId = await send(server, '41793026727', { text: 'Hello over SMPP' });
        const log = await finalLog(server, messageId);
        assert.equal(log.status.name, 'DELIVERED_TO_HANDSET');
        const received = sim.sim.received();
        assert.equal(received.length, 1);
        assert.equal(received[0]!.text, 'Hello over SMPP');
        assert.equal(received[0]!.to, '41793026727');
        assert.equal(received[0]!.from, 'Switchboard');
        assert.equal(received[0]!.fromTon, 5, 'an alphanumeric sender goes with TON 5');
        assert.equal(received[0]!.toTon, 1);
      });
    });
  }

  it('binds over TLS', async () => {
    const fixtures = path.resolve('test/fixtures/tls');
    const key = await readFile(path.join(fixtures, 'key.pem'));
    const cert = await readFile(path.join(fixtures, 'cert.pem'));
    const sim = await smsc({ tls: { key, cert } });
    await withLive(
      sim,
      'tlsVerify=false',
      async (server) => {
        const log = await finalLog(server, await send(server, '41793026727', { text: 'secret' }));
        assert.equal(log.status.name, 'DELIVERED_TO_HANDSET');
        assert.equal(sim.sim.received()[0]!.text, 'secret');
      },
      'smpps',
    );
  });

  for (const longMessages of ['udh8', 'udh16', 'sar', 'payload']) {
    it(`sends long GSM-7 and UCS-2 texts by ${longMessages}; the parts reassemble and one report comes`, async () => {
      const sim = await smsc();
      const gsm = `${'Prices in € and [brackets] ~ '.repeat(12)}end`;
      const ucs = `${'Привет 👋 мир! '.repeat(12)}конец`;
      await withLive(sim, `longMessages=${longMessages}`, async (server) => {
        const gsmId = await send(server, '41793026727', { text: gsm });
        const ucsId = await send(server, '41793026728', { text: ucs });
        const gsmLog = await finalLog(server, gsmId);
        const ucsLog = await finalLog(server, ucsId);
        assert.equal(gsmLog.status.name, 'DELIVERED_TO_HANDSET');
        assert.equal(ucsLog.status.name, 'DELIVERED_TO_HANDSET');
        const byTo = new Map(sim.sim.received().map((m) => [m.to, m]));
        assert.equal(byTo.get('41793026727')?.text, gsm);
        assert.equal(byTo.get('41793026728')?.text, ucs);
        assert.equal(byTo.get('41793026727')?.concat, longMessages);
        if (longMessages === 'udh8' || longMessages === 'sar') {
          assert.equal(byTo.get('41793026727')?.parts, gsmLog.messageCount, 'the same parts the API reported');
          assert.equal(byTo.get('41793026728')?.parts, ucsLog.messageCount);
        }
        if (longMessages === 'payload') assert.equal(byTo.get('41793026727')?.parts, 1);
        // One report per message, however many part receipts came.
        const reports = await server.request('GET', '/sms/3/reports');
        const ids = (reports.json().results as Array<{ messageId: string }>).map((r) => r.messageId).sort();
        assert.deepEqual(ids, [gsmId, ucsId].sort());
      });
    });
  }

  it('packs GSM 7-bit text for an SMSC that wants it, and sends binary content as given', async () => {
    const sim = await smsc({ gsm7Packing: 'packed' });
    await withLive(sim, 'gsm7Packing=packed', async (server) => {
      const text = `${'Packed septets [with] extension characters € '.repeat(5)}end`;
      const textId = await send(server, '41793026727', { text });
      const binaryId = await send(server, '41793026728', { hex: '0b05040b8423f0 00', dataCoding: 4, esmClass: 0 });
      assert.equal((await finalLog(server, textId)).status.name, 'DELIVERED_TO_HANDSET');
      assert.equal((await finalLog(server, binaryId)).status.name, 'DELIVERED_TO_HANDSET');
      const byTo = new Map(sim.sim.received().map((m) => [m.to, m]));
      assert.equal(byTo.get('41793026727')?.text, text);
      assert.equal(byTo.get('41793026728')?.dataCoding, 4);
      assert.equal(byTo.get('41793026728')?.text, '0B05040B8423F000');
    });
  });

  it('matches receipts that quote a hexadecimal submit id in decimal', async () => {
    const sim = await smsc({ idFormat: 'hex', receiptIdFormat: 'decimal' });
    await withLive(sim, 'submitIdFormat=hex&receiptIdFormat=decimal', async (server) => {
      const log = await finalLog(server, await send(server, '41793026727', { text: 'ids' }));
      assert.equal(log.status.name, 'DELIVERED_TO_HANDSET');
    });
  });

  it('maps failure receipts and refused submits to Infobip statuses', async () => {
    const sim = await smsc();
    await withLive(sim, '', async (server) => {
      const undeliverable = await finalLog(server, await send(server, '41793029001', { text: 'a' }));
      assert.equal(undeliverable.status.name, 'UNDELIVERABLE_NOT_DELIVERED');
      assert.equal(undeliverable.error.name, 'EC_UNKNOWN_SUBSCRIBER');
      const rejected = await finalLog(server, await send(server, '41793029005', { text: 'b' }));
      assert.equal(rejected.status.name, 'REJECTED_DESTINATION');
    });
  });

  it('turns inbound deliver_sm, single and concatenated, into inbox messages', async () => {
    const sim = await smsc();
    await withLive(sim, '', async (server) => {
      await eventually(async () => (sim.sim.stats().binds > 0 ? true : undefined));
      const long = `${'A long reply from the handset. '.repeat(8)}Bye`;
      await sim.sim.injectInbound({ from: '41793026727', to: '447860099299', text: 'STOP' });
      await sim.sim.injectInbound({ from: '41793026728', to: '447860099299', text: long, split: 'udh8' });
      const results = await eventually(async () => {
        const inbox = await server.request('GET', '/sms/1/inbox/reports');
        const got = inbox.json().results as Array<{ from: string; to: string; text: string; smsCount: number }>;
        return got.length > 0 ? got : undefined;
      });
      const all = [...results];
      if (all.length < 2) {
        const more = await eventually(async () => {
          const got = (await server.request('GET', '/sms/1/inbox/reports')).json().results as typeof results;
          return got.length > 0 ? got : undefined;
        });
        all.push(...more);
      }
      const byFrom = new Map(all.map((m) => [m.from, m]));
      assert.equal(byFrom.get('41793026727')?.text, 'STOP');
      assert.equal(byFrom.get('41793026728')?.text, long);
      assert.equal(byFrom.get('41793026728')?.smsCount, 2);
      assert.equal(byFrom.get('41793026728')?.to, '447860099299');
    });
  });

  it('backs off when throttled and then delivers everything', async () => {
    const sim = await smsc({ faults: { throttleNext: 3 } });
    await withLive(sim, '', async (server) => {
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await send(server, `4179302670${i}`, { text: `throttled ${i}` }));
      for (const id of ids) assert.equal((await finalLog(server, id)).status.name, 'DELIVERED_TO_HANDSET');
      assert.equal(sim.sim.stats().throttled, 3);
      const metrics = await server.request('GET', '/metrics');
      assert.match(metrics.text, /^switchboard_smpp_throttled_total\{[^}]*smsc="smsc"[^}]*\} 3$/m);
    });
  });

  it('pushes intermediate states to a message that asked for them, then one final report', async () => {
    // Server and simulator share a clock: the final receipts come when the test moves it, after the ENROUTE report is out.
    const clock = new ManualClock();
    const sim = await smsc({ intermediate: true, receiptDelayMs: 150 }, clock);
    const posts: Array<{ messageId: string; status: { name: string } }> = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        posts.push(...(JSON.parse(body) as { results: typeof posts }).results);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/dlr`;
    try {
      await withLive(sim, 'longMessages=udh8', async (server) => {
        const long = 'x'.repeat(400);
        const messageId = await send(server, '41793026727', { text: long }, { webhooks: { delivery: { url, intermediateReport: true } } });
        // Once every part is in, their ENROUTE notifications are due at once and their receipts in 150 ms.
        await eventually(async () => (sim.sim.received().length === 1 ? true : undefined));
        assert.equal(sim.sim.received()[0]!.registeredDelivery, 0x11, 'intermediate notifications asked for');
        passDeliveryTick(clock);
        await eventually(async () => (posts.length > 0 ? true : undefined));
        assert.deepEqual(posts.map((p) => [p.messageId, p.status.name]), [[messageId, 'PENDING_ENROUTE']], 'one intermediate report for the three parts');
        clock.advance(150);
        await eventually(async () => (posts.some((p) => p.status.name === 'DELIVERED_TO_HANDSET') ? true : undefined));
        assert.deepEqual(
          posts.map((p) => [p.messageId, p.status.name]),
          [
            [messageId, 'PENDING_ENROUTE'],
            [messageId, 'DELIVERED_TO_HANDSET'],
          ],
          'one intermediate and one final report for a three-part message',
        );
      }, 'smpp', clock);
    } finally {
      receiver.close();
    }
  });

  it('loses nothing when the connection drops with submits in the window', async () => {
    const sim = await smsc({ faults: { disconnectAfterSubmits: 7 } });
    await withLive(sim, 'window=20', async (server) => {
      const response = await server.request('POST', '/sms/3/messages', {
        body: { messages: [{ destinations: Array.from({ length: 30 }, (_, i) => ({ to: `417930${String(10000 + i)}` })), content: { text: 'no loss' } }] },
      });
      assert.equal(response.status, 200);
      const ids = (response.json().messages as Array<{ messageId: string }>).map((m) => m.messageId);
      for (const id of ids) assert.equal((await finalLog(server, id, 15_000)).status.name, 'DELIVERED_TO_HANDSET');
      const destinations = new Set(sim.sim.received().map((m) => m.to));
      assert.equal(destinations.size, 30, 'every message reached the SMSC (some possibly twice)');
    });
  });
});
