import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import type { StoredMessage } from '../../src/core/store/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { defaultAccountId, DELIVERED, EXPIRED, HOUR, qs, seedMessages, TIME, UNDELIVERABLE } from './read-fixtures.js';

interface Log {
  messageId: string;
  [key: string]: unknown;
}

describe('GET /sms/3/logs and /sms/1/logs', () => {
  const start = Date.UTC(2025, 2, 4, 10, 0, 0);
  const clock = new ManualClock(start);
  let server: TestServer;
  let accountId: string;
  /** Every test gets its own bulk tag so earlier tests' messages never match. */
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

  /** Eight messages of one bulk-tag family, oldest first; index = position. */
  const seedVariety = async (): Promise<void> => {
    tag = randomUUID();
    const now = clock.now();
    seeded = await seedMessages(server.ctx.store, accountId, now, [
      /* 0 */ { bulkId: `${tag}-a`, sender: 'ACME', destination: '41790000000', sentAt: now + 1000, final: { status: DELIVERED, at: now + 2000, mccMnc: '22801' } },
      /* 1 */ { bulkId: `${tag}-a`, sender: 'ACME', destination: '41790000001', sentAt: now + 2000, final: { status: UNDELIVERABLE, errorId: 1, at: now + 3000, mccMnc: '22802' } },
      /* 2 */ { bulkId: `${tag}-b`, sender: 'Other', destination: '41790000002', sentAt: now + 3000, final: { status: DELIVERED, at: now + 4000, mccMnc: '21910' } },
      /* 3 */ { bulkId: `${tag}-b`, sender: 'Other', destination: '41790000003', sentAt: now + 4000 },
      /* 4 */ { bulkId: `${tag}-c`, entityId: 'ent-1', applicationId: 'app-1', sentAt: now + 5000 },
      /* 5 */ { bulkId: `${tag}-c`, campaignReferenceId: 'camp-1', sentAt: now + 6000, final: { status: EXPIRED, errorId: 4101, at: now + 7000 } },
      /* 6 */ { bulkId: `${tag}-c`, campaignReferenceId: 'camp-2', content: { hex: '0a0b', dataCoding: 8, esmClass: 64 }, encoding: 'BINARY', sentAt: now + 7000 },
      /* 7 */ { bulkId: `${tag}-d` },
    ]);
  };
  const allBulks = (): string => ['a', 'b', 'c', 'd'].map((s) => `${tag}-${s}`).join(',');

  it('renders the v3 log shape for final, in-flight and binary messages', async () => {
    await seedVariety();
    const results = (await logs(`/sms/3/logs?bulkId=${allBulks()}`)).results;
    assert.deepEqual(results.map((r) => r.messageId), idsOf(7, 6, 5, 4, 3, 2, 1, 0));
    const byId = new Map(results.map((r) => [r.messageId, r]));

    assert.deepEqual(byId.get(seeded[0]!.messageId), {
      sender: 'ACME',
      destination: '41790000000',
      bulkId: `${tag}-a`,
      messageId: seeded[0]!.messageId,
      sentAt: '2025-03-04T10:00:01.000+0000',
      doneAt: '2025-03-04T10:00:02.000+0000',
      messageCount: 1,
      price: { pricePerMessage: 0, currency: 'EUR' },
      status: { groupId: 3, groupName: 'DELIVERED', id: 5, name: 'DELIVERED_TO_HANDSET', description: 'Message delivered to handset' },
      error: { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false },
      content: { text: 'hello' },
      mccMnc: '22801',
    });

    const inFlight = byId.get(seeded[4]!.messageId)!;
    assert.deepEqual(Object.keys(inFlight), [
      'destination', 'bulkId', 'messageId', 'sentAt', 'messageCount', 'price', 'status', 'error', 'platform', 'content',
    ]);
    assert.equal((inFlight.status as { name: string }).name, 'PENDING_ACCEPTED');
    assert.equal((inFlight.error as { name: string }).name, 'NO_ERROR');
    assert.deepEqual(inFlight.platform, { entityId: 'ent-1', applicationId: 'app-1' });

    assert.deepEqual(byId.get(seeded[6]!.messageId)!.content, { hex: '0a0b', dataCoding: 8, esmClass: 64 });
    assert.equal(byId.get(seeded[5]!.messageId)!.campaignReferenceId, 'camp-1');
    for (const log of results) {
      assert.match(String(log.sentAt), TIME);
      if (log.doneAt !== undefined) assert.match(String(log.doneAt), TIME);
      assert.ok(Number.isInteger(log.messageCount));
    }
  });

  it('renders the legacy log shape', async () => {
    await seedVariety();
    const response = await server.request('GET', `/sms/1/logs?bulkId=${tag}-a`);
    assert.equal(response.status, 200);
    const body = response.json();
    assert.deepEqual(Object.keys(body), ['results']);
    assert.deepEqual(body.results[1], {
      bulkId: `${tag}-a`,
      messageId: seeded[0]!.messageId,
      to: '41790000000',
      from: 'ACME',
      text: 'hello',
      sentAt: '2025-03-04T10:00:01.000+0000',
      doneAt: '2025-03-04T10:00:02.000+0000',
      smsCount: 1,
      mccMnc: '22801',
      price: { pricePerMessage: 0, currency: 'EUR' },
      status: { groupId: 3, groupName: 'DELIVERED', id: 5, name: 'DELIVERED_TO_HANDSET', description: 'Message delivered to handset' },
      error: { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false },
    });
  });

  it('is repeatable and has no cursor unless asked', async () => {
    await seedVariety();
    const first = await logs(`/sms/3/logs?bulkId=${allBulks()}`);
    const second = await logs(`/sms/3/logs?bulkId=${allBulks()}`);
    assert.deepEqual(first, second);
    assert.equal('cursor' in first, false);
    assert.equal(first.results.length, 8);
  });

  it('accepts array parameters repeated, comma-separated and mixed', async () => {
    await seedVariety();
    const expected = idsOf(3, 2, 1, 0);
    assert.deepEqual(await ids(`/sms/3/logs${qs([['bulkId', `${tag}-a`], ['bulkId', `${tag}-b`]])}`), expected);
    assert.deepEqual(await ids(`/sms/3/logs${qs([['bulkId', `${tag}-a,${tag}-b`]])}`), expected);
    assert.deepEqual(await ids(`/sms/1/logs${qs([['bulkId', `${tag}-a`], ['bulkId', `${tag}-b, ${tag}-zzz`]])}`), expected);
    assert.deepEqual(await ids(`/sms/3/logs${qs([['messageId', seeded[0]!.messageId], ['messageId', seeded[5]!.messageId]])}`), idsOf(5, 0));
    assert.deepEqual(await ids(`/sms/1/logs${qs([['messageId', `${seeded[1]!.messageId},${seeded[2]!.messageId}`]])}`), idsOf(2, 1));
    const campaigns = qs([['bulkId', `${tag}-c`], ['campaignReferenceId', 'camp-1'], ['campaignReferenceId', 'camp-2']]);
    assert.deepEqual(await ids(`/sms/3/logs${campaigns}`), idsOf(6, 5));
    assert.deepEqual(await ids(`/sms/1/logs${qs([['bulkId', `${tag}-c`], ['campaignReferenceId', 'camp-2,camp-1']])}`), idsOf(6, 5));
  });

  it('filters by sender/destination (from/to on legacy), status group, mcc/mnc, entity and application', async () => {
    await seedVariety();
    const scope = `bulkId=${allBulks()}`;
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&sender=Other`), idsOf(3, 2));
    assert.deepEqual(await ids(`/sms/1/logs?${scope}&from=ACME`), idsOf(1, 0));
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&destination=41790000002`), idsOf(2));
    // Written as a caller may have sent it: with + and spaces.
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&destination=${encodeURIComponent('+41 790 000 002')}`), idsOf(2));
    assert.deepEqual(await ids(`/sms/1/logs?${scope}&to=41790000001`), idsOf(1));
    assert.deepEqual(await ids(`/sms/1/logs?${scope}&to=41790000001&from=Other`), []);
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&generalStatus=DELIVERED`), idsOf(2, 0));
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&generalStatus=UNDELIVERABLE`), idsOf(1));
    assert.deepEqual(await ids(`/sms/1/logs?${scope}&generalStatus=EXPIRED`), idsOf(5));
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&generalStatus=PENDING`), idsOf(7, 6, 4, 3));
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&generalStatus=REJECTED`), []);
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&mcc=228`), idsOf(1, 0));
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&mcc=228&mnc=02`), idsOf(1));
    assert.deepEqual(await ids(`/sms/1/logs?${scope}&mcc=219&mnc=10`), idsOf(2));
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&entityId=ent-1`), idsOf(4));
    assert.deepEqual(await ids(`/sms/1/logs?${scope}&applicationId=app-1`), idsOf(4));
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&applicationId=nope`), []);
  });

  it('filters by sentSince/sentUntil in every accepted time format', async () => {
    await seedVariety();
    const scope = `bulkId=${tag}-a,${tag}-b,${tag}-c`;
    // Messages 0..6 were sent at +1 s .. +7 s.
    const base = clock.now();
    const at = (seconds: number) => new Date(base + seconds * 1000).toISOString(); // …Z form
    const plus = (seconds: number) => at(seconds).replace('Z', '+0000');
    assert.deepEqual(await ids(`/sms/3/logs?${scope}${qs([['sentSince', plus(3)], ['sentUntil', plus(5)]]).replace('?', '&')}`), idsOf(4, 3, 2));
    assert.deepEqual(await ids(`/sms/3/logs?${scope}${qs([['sentSince', at(6)]]).replace('?', '&')}`), idsOf(6, 5));
    assert.deepEqual(await ids(`/sms/1/logs?${scope}${qs([['sentUntil', at(2).replace('Z', '+00:00')]]).replace('?', '&')}`), idsOf(1, 0));
    assert.deepEqual(await ids(`/sms/3/logs?${scope}${qs([['sentSince', at(7).replace('.000Z', '.000000')]]).replace('?', '&')}`), idsOf(6));
    // An unencoded "+" reaches the server as a space.
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&sentSince=${plus(6)}`), idsOf(6, 5));
    assert.deepEqual(await ids(`/sms/3/logs?${scope}&sentSince=${plus(6).replace('+', '%20')}`), idsOf(6, 5));
    // Two hours ahead, expressed in +0200.
    const shifted = new Date(base + 2 * HOUR + 6000).toISOString().replace('Z', '+0200');
    assert.deepEqual(await ids(`/sms/3/logs?${scope}${qs([['sentSince', shifted]]).replace('?', '&')}`), idsOf(6, 5));
  });

  it('rejects bad parameters with a 400 naming each of them', async () => {
    const cases: Array<[string, string[]]> = [
      ['/sms/3/logs?mnc=01', ['mnc']],
      ['/sms/3/logs?generalStatus=delivered', ['generalStatus']],
      ['/sms/3/logs?sentSince=yesterday', ['sentSince']],
      ['/sms/3/logs?sentUntil=2025-13-01T00:00:00', ['sentUntil']],
      ['/sms/3/logs?sentSince=nope&mnc=1', ['sentSince', 'mnc']],
      [`/sms/3/logs?bulkId=${'x'.repeat(2049)}`, ['bulkId']],
      [`/sms/3/logs?messageId=a&messageId=${'x'.repeat(2049)}`, ['messageId']],
      ['/sms/3/logs?limit=0', ['limit']],
      ['/sms/3/logs?limit=1001', ['limit']],
      ['/sms/3/logs?limit=ten', ['limit']],
      ['/sms/3/logs?useCursor=maybe', ['useCursor']],
      ['/sms/3/logs?useCursor=true&cursor=not-a-cursor', ['cursor']],
    ];
    for (const [path, properties] of cases) {
      const response = await server.request('GET', path);
      assert.equal(response.status, 400, path.slice(0, 80));
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ['action', 'description', 'errorCode', 'resources', 'violations']);
      assert.deepEqual(body.violations.map((v: { property: string }) => v.property).sort(), [...properties].sort(), path.slice(0, 80));
    }
    const legacy = await server.request('GET', '/sms/1/logs?mnc=01&limit=5000');
    assert.equal(legacy.status, 400);
    const exception = legacy.json().requestError.serviceException;
    assert.equal(exception.messageId, 'BAD_REQUEST');
    assert.ok(Object.keys(exception.validationErrors).includes('limit') || Object.keys(exception.validationErrors).includes('mnc'));
  });

  it('pages with cursors through every message exactly once', async () => {
    await seedVariety();
    const scope = `bulkId=${allBulks()}`;
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const body = await logs(`/sms/3/logs?${scope}&limit=3&useCursor=true${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.ok(body.cursor, 'cursor object when paging');
      assert.equal(body.cursor.limit, 3);
      seen.push(...body.results.map((r) => r.messageId));
      sizes.push(body.results.length);
      cursor = body.cursor.nextCursor;
      if (cursor === undefined) break;
      assert.equal(typeof cursor, 'string');
    }
    assert.deepEqual(sizes, [3, 3, 2]);
    assert.deepEqual(seen, idsOf(7, 6, 5, 4, 3, 2, 1, 0));
    assert.equal(new Set(seen).size, seen.length);
  });

  it('omits nextCursor when the page holds the last results, even a full page', async () => {
    await seedVariety();
    const exact = await logs(`/sms/3/logs?bulkId=${tag}-c&limit=3&useCursor=true`);
    assert.equal(exact.results.length, 3);
    assert.deepEqual(exact.cursor, { limit: 3 });
    const short = await logs(`/sms/3/logs?bulkId=${tag}-d&useCursor=true`);
    assert.deepEqual(short.cursor, { limit: 50 });
    assert.equal(short.results.length, 1);
  });

  it('keeps filters applied across cursor pages', async () => {
    await seedVariety();
    const scope = `bulkId=${allBulks()}&generalStatus=PENDING`;
    const first = await logs(`/sms/3/logs?${scope}&limit=2&useCursor=true`);
    assert.deepEqual(first.results.map((r) => r.messageId), idsOf(7, 6));
    const second = await logs(`/sms/3/logs?${scope}&limit=2&cursor=${first.cursor!.nextCursor!}`);
    assert.deepEqual(second.results.map((r) => r.messageId), idsOf(4, 3));
    assert.deepEqual(second.cursor, { limit: 2 });
  });

  it('returns 50 by default and at most limit, newest first', async () => {
    const bulkId = randomUUID();
    const messages = await seedMessages(server.ctx.store, accountId, clock.now(), Array.from({ length: 55 }, () => ({ bulkId })));
    const newestFirst = messages.map((m) => m.messageId).reverse();
    assert.deepEqual(await ids(`/sms/3/logs?bulkId=${bulkId}`), newestFirst.slice(0, 50));
    assert.deepEqual(await ids(`/sms/1/logs?bulkId=${bulkId}&limit=5`), newestFirst.slice(0, 5));
    assert.equal((await ids(`/sms/3/logs?bulkId=${bulkId}&limit=1000`)).length, 55);
  });

  it('reaches only messages of the last 48 hours', async () => {
    const bulkId = randomUUID();
    const [old] = await seedMessages(server.ctx.store, accountId, clock.now(), [{ bulkId }]);
    clock.advance(HOUR);
    const [recent] = await seedMessages(server.ctx.store, accountId, clock.now(), [{ bulkId }]);
    assert.deepEqual(await ids(`/sms/3/logs?bulkId=${bulkId}`), [recent!.messageId, old!.messageId]);
    clock.advance(47 * HOUR + 1);
    assert.deepEqual(await ids(`/sms/3/logs?bulkId=${bulkId}`), [recent!.messageId]);
    assert.deepEqual(await ids(`/sms/1/logs?bulkId=${bulkId}`), [recent!.messageId]);
  });
});
