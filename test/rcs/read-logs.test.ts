import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import type { RcsContent, StoredMessage } from '../../src/core/store/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { defaultAccountId, DELIVERED, HOUR, qs, seedMessages, TIME, UNDELIVERABLE } from '../sms/read-fixtures.js';
import { AGENT, RCS_TEXT, seedRcs, USER, withFailover } from './rcs-fixtures.js';

interface Log {
  messageId: string;
  [key: string]: any;
}

const CAROUSEL: RcsContent = {
  type: 'CAROUSEL',
  cardWidth: 'MEDIUM',
  contents: [
    { title: 'One', media: { file: { url: 'https://example.com/1.png' }, height: 'SHORT' } },
    { title: 'Two', description: 'Second card', suggestions: [{ type: 'OPEN_URL', text: 'Open', postbackData: 'o', url: 'https://example.com' }] },
  ],
  suggestions: [{ type: 'DIAL_PHONE', text: 'Call', postbackData: 'call', phoneNumber: '+385911234567' }],
};

describe('GET /rcs/2/logs', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 3, 14, 0, 0));
  let server: TestServer;
  let accountId: string;
  let seeded: StoredMessage[];
  let tag: string;
  before(async () => {
    server = await startTestServer({ clock });
    accountId = await defaultAccountId(server);
  });
  after(() => server.close());

  const logs = async (path: string): Promise<{ results: Log[]; cursor?: { limit: number; nextCursor?: string } }> => {
    const response = await server.request('GET', path);
    assert.equal(response.status, 200, response.text);
    return response.json();
  };
  const ids = async (path: string): Promise<string[]> => (await logs(path)).results.map((r) => r.messageId);
  const idsOf = (...indexes: number[]): string[] => indexes.map((i) => seeded[i]!.messageId);

  /** Five RCS messages, oldest first (index = position), plus an SMS and an SMS failover of the same bulks. */
  const seedVariety = async (): Promise<void> => {
    tag = randomUUID();
    const now = clock.now();
    const { rcs, failover } = withFailover({ bulkId: `${tag}-b`, sentAt: now + 4000, final: { status: UNDELIVERABLE, errorId: 7002, at: now + 4500 } });
    seeded = await seedRcs(server.ctx.store, accountId, now, [
      /* 0 */ { bulkId: `${tag}-a`, sentAt: now + 1000, final: { status: DELIVERED, at: now + 2000, mccMnc: '21910' } },
      /* 1 */ { bulkId: `${tag}-a`, sender: 'OtherAgent', destination: '385910000001', content: CAROUSEL, sentAt: now + 2000 },
      /* 2 */ { bulkId: `${tag}-b`, entityId: 'ent-1', applicationId: 'app-1', campaignReferenceId: 'camp-1', sentAt: now + 3000 },
      /* 3 */ rcs,
      /* 4 */ { bulkId: `${tag}-c` },
    ]);
    await seedMessages(server.ctx.store, accountId, now, [
      { bulkId: `${tag}-a` },
      { ...failover(seeded[3]!.messageId), bulkId: `${tag}-b` },
    ]);
  };
  const allBulks = (): string => ['a', 'b', 'c'].map((s) => `${tag}-${s}`).join(',');

  it('lists RCS messages only, newest first, with the RCS log shape and the content echoed', async () => {
    await seedVariety();
    const results = (await logs(`/rcs/2/logs?bulkId=${allBulks()}`)).results;
    assert.deepEqual(results.map((r) => r.messageId), idsOf(4, 3, 2, 1, 0), 'neither the SMS nor the SMS failover');
    const byId = new Map(results.map((r) => [r.messageId, r]));
    assert.deepEqual(byId.get(seeded[0]!.messageId), {
      sender: AGENT,
      destination: USER,
      bulkId: `${tag}-a`,
      messageId: seeded[0]!.messageId,
      sentAt: '2026-03-03T14:00:01.000+0000',
      doneAt: '2026-03-03T14:00:02.000+0000',
      messageCount: 1,
      price: { pricePerMessage: 0, currency: 'EUR' },
      status: { groupId: 3, groupName: 'DELIVERED', id: 5, name: 'DELIVERED_TO_HANDSET', description: 'Message delivered to handset' },
      error: { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false },
      content: RCS_TEXT,
    });
    assert.deepEqual(byId.get(seeded[1]!.messageId)!.content, CAROUSEL, 'a rich content comes back whole');
    const withPlatform = byId.get(seeded[2]!.messageId)!;
    assert.deepEqual(withPlatform.platform, { entityId: 'ent-1', applicationId: 'app-1' });
    assert.equal(withPlatform.campaignReferenceId, 'camp-1');
    assert.equal('doneAt' in withPlatform, false, 'in flight');
    assert.equal(byId.get(seeded[3]!.messageId)!.error.name, 'EC_UNKNOWN_USER');
    for (const log of results) {
      assert.equal('mccMnc' in log, false);
      assert.match(log.sentAt, TIME);
    }
  });

  it('is repeatable and has no cursor unless asked', async () => {
    await seedVariety();
    const first = await logs(`/rcs/2/logs?bulkId=${tag}-a`);
    assert.deepEqual(Object.keys(first), ['results']);
    assert.deepEqual((await logs(`/rcs/2/logs?bulkId=${tag}-a`)).results, first.results);
  });

  it('filters by sender, destination, message ids, status group, platform, campaign and sent time', async () => {
    await seedVariety();
    const now = clock.now();
    const scoped = (pairs: Array<[string, string]>) => ids(`/rcs/2/logs${qs([['bulkId', allBulks()], ...pairs])}`);
    assert.deepEqual(await scoped([['sender', 'OtherAgent']]), idsOf(1));
    assert.deepEqual(await scoped([['destination', '+385910000001']]), idsOf(1));
    assert.deepEqual(await scoped([['messageId', seeded[0]!.messageId], ['messageId', seeded[4]!.messageId]]), idsOf(4, 0));
    assert.deepEqual(await scoped([['generalStatus', 'UNDELIVERABLE']]), idsOf(3));
    assert.deepEqual(await scoped([['entityId', 'ent-1'], ['applicationId', 'app-1']]), idsOf(2));
    assert.deepEqual(await scoped([['campaignReferenceId', 'camp-1,camp-x']]), idsOf(2));
    const at = (offset: number) => new Date(now + offset).toISOString().replace('Z', '+0000');
    assert.deepEqual(await scoped([['sentSince', at(2000)], ['sentUntil', at(3000)]]), idsOf(2, 1));
  });

  it('takes no mcc/mnc filter, unlike SMS logs', async () => {
    await seedVariety();
    assert.deepEqual(await ids(`/rcs/2/logs?bulkId=${tag}-a&mnc=01`), idsOf(1, 0), 'unknown parameters are ignored');
  });

  it('rejects bad parameters in the new envelope, naming each', async () => {
    const response = await server.request('GET', '/rcs/2/logs?limit=1001&sentSince=yesterday&generalStatus=SEEN');
    assert.equal(response.status, 400);
    const body = response.json();
    assert.equal(body.errorCode, 'E400');
    assert.ok(body.violations.length >= 1);
    const cursor = await server.request('GET', '/rcs/2/logs?cursor=not-a-cursor');
    assert.equal(cursor.status, 400);
    assert.deepEqual(cursor.json().violations.map((v: { property: string }) => v.property), ['cursor']);
  });

  it('pages with cursors through every message exactly once, filters kept', async () => {
    await seedVariety();
    const seen: string[] = [];
    let path = `/rcs/2/logs?bulkId=${allBulks()}&limit=2&useCursor=true`;
    for (let page = 0; page < 5; page++) {
      const body = await logs(path);
      assert.equal(body.cursor?.limit, 2);
      seen.push(...body.results.map((r) => r.messageId));
      if (body.cursor?.nextCursor === undefined) break;
      path = `/rcs/2/logs?bulkId=${allBulks()}&limit=2&cursor=${body.cursor.nextCursor}`;
    }
    assert.deepEqual(seen, idsOf(4, 3, 2, 1, 0));
  });

  it('returns 50 by default and at most limit', async () => {
    tag = randomUUID();
    await seedRcs(server.ctx.store, accountId, clock.now(), Array.from({ length: 52 }, () => ({ bulkId: tag })));
    assert.equal((await ids(`/rcs/2/logs?bulkId=${tag}`)).length, 50);
    assert.equal((await ids(`/rcs/2/logs?bulkId=${tag}&limit=51`)).length, 51);
  });

  it('reaches only messages of the last 48 hours', async () => {
    tag = randomUUID();
    const [old] = await seedRcs(server.ctx.store, accountId, clock.now(), [{ bulkId: tag }]);
    clock.advance(2 * HOUR);
    const [recent] = await seedRcs(server.ctx.store, accountId, clock.now(), [{ bulkId: tag }]);
    clock.advance(46 * HOUR + 1);
    assert.deepEqual(await ids(`/rcs/2/logs?bulkId=${tag}`), [recent!.messageId]);
    assert.notEqual(recent!.messageId, old!.messageId);
  });
});
