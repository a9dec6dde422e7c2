import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { defaultAccountId, DELIVERED, finish, HOUR, PENDING_ACCEPTED, qs, seedMessages, TIME, UNDELIVERABLE } from './read-fixtures.js';

const V3_KEYS = [
  'bulkId', 'messageId', 'to', 'sender', 'sentAt', 'doneAt', 'messageCount', 'mccMnc',
  'callbackData', 'price', 'status', 'error', 'platform', 'campaignReferenceId',
];
const LEGACY_KEYS = [
  'bulkId', 'messageId', 'to', 'from', 'sentAt', 'doneAt', 'smsCount', 'mccMnc', 'callbackData',
  'price', 'status', 'error', 'entityId', 'applicationId', 'campaignReferenceId',
];

describe('GET /sms/3/reports and /sms/1/reports', () => {
  const clock = new ManualClock(Date.UTC(2025, 2, 4, 10, 0, 0));
  let server: TestServer;
  let accountId: string;
  before(async () => {
    server = await startTestServer({ clock });
    accountId = await defaultAccountId(server);
  });
  after(() => server.close());

  const pull = async (path: string): Promise<Array<Record<string, unknown>>> => {
    const response = await server.request('GET', path);
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = response.json();
    assert.deepEqual(Object.keys(body), ['results']);
    return body.results;
  };
  /** Empties the queue so each test starts from nothing. */
  const drain = async (): Promise<void> => {
    while ((await pull('/sms/3/reports?limit=1000')).length > 0);
  };
  const seedFull = (sentAt: number) =>
    seedMessages(server.ctx.store, accountId, clock.now(), [
      {
        sender: 'ACME',
        destination: '385981234567',
        messageCount: 2,
        callbackData: 'order=42',
        entityId: 'ent-1',
        applicationId: 'app-1',
        campaignReferenceId: 'summer',
        sentAt,
        final: { status: DELIVERED, at: sentAt + 3120, mccMnc: '21910' },
      },
    ]);

  it('returns an empty list when nothing is pending', async () => {
    await drain();
    const response = await server.request('GET', '/sms/3/reports');
    assert.equal(response.status, 200);
    assert.deepEqual(response.json(), { results: [] });
    assert.deepEqual((await server.request('GET', '/sms/1/reports')).json(), { results: [] });
  });

  it('renders a v3 report with every field, right types and formats', async () => {
    await drain();
    const sentAt = clock.now();
    const [message] = await seedFull(sentAt);
    const [report, ...rest] = await pull('/sms/3/reports');
    assert.equal(rest.length, 0);
    assert.deepEqual(Object.keys(report!), V3_KEYS);
    assert.deepEqual(report, {
      bulkId: message!.bulkId,
      messageId: message!.messageId,
      to: '385981234567',
      sender: 'ACME',
      sentAt: '2025-03-04T10:00:00.000+0000',
      doneAt: '2025-03-04T10:00:03.120+0000',
      messageCount: 2,
      mccMnc: '21910',
      callbackData: 'order=42',
      price: { pricePerMessage: 0, currency: 'EUR' },
      status: { groupId: 3, groupName: 'DELIVERED', id: 5, name: 'DELIVERED_TO_HANDSET', description: 'Message delivered to handset' },
      error: { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false },
      platform: { entityId: 'ent-1', applicationId: 'app-1' },
      campaignReferenceId: 'summer',
    });
  });

  it('renders the legacy report with from, smsCount and flat platform ids', async () => {
    await drain();
    const [message] = await seedFull(clock.now());
    const [report] = await pull('/sms/1/reports');
    assert.deepEqual(Object.keys(report!), LEGACY_KEYS);
    assert.equal(report!.messageId, message!.messageId);
    assert.equal(report!.from, 'ACME');
    assert.equal(report!.smsCount, 2);
    assert.equal(report!.entityId, 'ent-1');
    assert.equal(report!.applicationId, 'app-1');
    assert.match(String(report!.sentAt), TIME);
    assert.match(String(report!.doneAt), TIME);
  });

  it('omits optional fields the message did not have, never emitting null', async () => {
    await drain();
    const [message] = await seedMessages(server.ctx.store, accountId, clock.now(), [
      { final: { status: UNDELIVERABLE, errorId: 1, at: clock.now() } },
    ]);
    const response = await server.request('GET', '/sms/3/reports');
    assert.equal(response.text.includes('null'), false);
    const [report] = response.json().results;
    assert.equal(report.messageId, message!.messageId);
    assert.deepEqual(Object.keys(report), ['bulkId', 'messageId', 'to', 'sentAt', 'doneAt', 'messageCount', 'price', 'status', 'error']);
    assert.equal(typeof report.messageCount, 'number');
    assert.ok(Number.isInteger(report.messageCount));
    assert.equal(report.error.name, 'EC_UNKNOWN_SUBSCRIBER');
    assert.equal(report.error.permanent, true);
  });

  it('hands each report out once, whichever endpoint pulls it', async () => {
    await drain();
    const messages = await seedMessages(server.ctx.store, accountId, clock.now(), [
      { final: { status: DELIVERED, at: clock.now() } },
      { final: { status: DELIVERED, at: clock.now() } },
      { api: 'sms2', final: { status: DELIVERED, at: clock.now() } },
    ]);
    const first = await pull('/sms/3/reports?limit=2');
    assert.deepEqual(first.map((r) => r.messageId), [messages[0]!.messageId, messages[1]!.messageId]);
    const second = await pull('/sms/1/reports');
    assert.deepEqual(second.map((r) => r.messageId), [messages[2]!.messageId]);
    assert.equal(second[0]!.smsCount, 1, 'legacy shape regardless of the sending API');
    assert.deepEqual(await pull('/sms/3/reports'), []);
    assert.deepEqual(await pull('/sms/1/reports'), []);
  });

  it('renders reports of messages sent with the legacy API in the v3 shape on /sms/3/reports', async () => {
    await drain();
    const [message] = await seedMessages(server.ctx.store, accountId, clock.now(), [
      { api: 'sms2', sender: 'Legacy', final: { status: DELIVERED, at: clock.now() } },
    ]);
    const [report] = await pull('/sms/3/reports');
    assert.equal(report!.messageId, message!.messageId);
    assert.equal(report!.sender, 'Legacy');
    assert.equal(report!.messageCount, 1);
    assert.equal('smsCount' in report!, false);
  });

  it('makes a report available once the status is final, not for an intermediate one', async () => {
    await drain();
    const [message] = await seedMessages(server.ctx.store, accountId, clock.now(), [{ sentAt: clock.now() }]);
    await finish(server.ctx.store, accountId, message!.messageId, { status: PENDING_ACCEPTED, at: clock.now(), final: false });
    assert.deepEqual(await pull('/sms/3/reports'), []);
    await finish(server.ctx.store, accountId, message!.messageId, { status: DELIVERED, at: clock.now() + 10 });
    const [delivered] = await pull('/sms/3/reports');
    assert.equal(delivered!.messageId, message!.messageId);
    assert.equal((delivered!.status as { groupName: string }).groupName, 'DELIVERED');
  });

  it('filters by bulkId, messageId, entityId, applicationId and campaignReferenceId, leaving the rest pending', async () => {
    await drain();
    const at = clock.now();
    const [plain, inBulk, withEntity, withApp, withCampaign] = await seedMessages(server.ctx.store, accountId, at, [
      { final: { status: DELIVERED, at } },
      { bulkId: 'bulk-x', final: { status: DELIVERED, at } },
      { entityId: 'ent-x', final: { status: DELIVERED, at } },
      { applicationId: 'app-x', final: { status: DELIVERED, at } },
      { campaignReferenceId: 'camp-x', final: { status: DELIVERED, at } },
    ]);
    const ids = async (path: string) => (await pull(path)).map((r) => r.messageId);
    assert.deepEqual(await ids(`/sms/3/reports${qs([['messageId', plain!.messageId]])}`), [plain!.messageId]);
    assert.deepEqual(await ids('/sms/3/reports?bulkId=bulk-x'), [inBulk!.messageId]);
    assert.deepEqual(await ids('/sms/1/reports?entityId=ent-x'), [withEntity!.messageId]);
    assert.deepEqual(await ids('/sms/3/reports?applicationId=app-x'), [withApp!.messageId]);
    assert.deepEqual(await ids('/sms/1/reports?campaignReferenceId=camp-x'), [withCampaign!.messageId]);
    assert.deepEqual(await ids('/sms/3/reports?bulkId=no-such-bulk'), []);
    assert.deepEqual(await pull('/sms/3/reports'), []);
  });

  it('returns the oldest reports first, at most limit per call, 50 by default', async () => {
    await drain();
    const at = clock.now();
    const seeded = await seedMessages(
      server.ctx.store,
      accountId,
      at,
      Array.from({ length: 53 }, () => ({ final: { status: DELIVERED, at } })),
    );
    const firstBatch = await pull('/sms/3/reports');
    assert.equal(firstBatch.length, 50);
    assert.deepEqual(firstBatch.map((r) => r.messageId), seeded.slice(0, 50).map((m) => m.messageId));
    assert.equal((await pull('/sms/3/reports?limit=2')).length, 2);
    assert.equal((await pull('/sms/3/reports?limit=1000')).length, 1);
  });

  it('rejects a limit out of range or not an integer, naming limit in the endpoint family envelope', async () => {
    for (const limit of ['0', '-1', '1001', 'abc', '1.5']) {
      const modern = await server.request('GET', `/sms/3/reports?limit=${limit}`);
      assert.equal(modern.status, 400, limit);
      const body = modern.json();
      assert.equal(body.errorCode, 'E400');
      assert.deepEqual(body.violations.map((v: { property: string }) => v.property), ['limit'], limit);

      const legacy = await server.request('GET', `/sms/1/reports?limit=${limit}`);
      assert.equal(legacy.status, 400, limit);
      const legacyBody = legacy.json();
      assert.equal(legacyBody.requestError.serviceException.messageId, 'BAD_REQUEST');
      assert.deepEqual(Object.keys(legacyBody.requestError.serviceException.validationErrors), ['limit'], limit);
    }
  });

  it('treats an empty limit as not given', async () => {
    const response = await server.request('GET', '/sms/3/reports?limit=&bulkId=');
    assert.equal(response.status, 200);
  });

  it('reaches only reports of the last 48 hours', async () => {
    await drain();
    const at = clock.now();
    const [old] = await seedMessages(server.ctx.store, accountId, at, [{ final: { status: DELIVERED, at } }]);
    clock.advance(2 * HOUR);
    const [recent] = await seedMessages(server.ctx.store, accountId, clock.now(), [{ final: { status: DELIVERED, at: clock.now() } }]);
    clock.advance(46 * HOUR + 1);
    const results = await pull('/sms/3/reports');
    assert.deepEqual(results.map((r) => r.messageId), [recent!.messageId]);
    assert.notEqual(results[0]!.messageId, old!.messageId);
  });
});
