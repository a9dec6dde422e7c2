import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { ERROR } from '../../src/core/pipeline/statuses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { defaultAccountId, DELIVERED, finish, HOUR, PENDING_ACCEPTED, qs, seedMessages, UNDELIVERABLE } from '../sms/read-fixtures.js';
import { AGENT, seedRcs, USER, withFailover } from './rcs-fixtures.js';

const REPORT_KEYS = [
  'bulkId', 'messageId', 'to', 'sender', 'price', 'status', 'error', 'conversation', 'interactionType',
  'sentAt', 'doneAt', 'messageCount', 'mccMnc', 'callbackData', 'platform', 'campaignReferenceId',
];

describe('GET /rcs/2/reports', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 3, 14, 0, 0));
  let server: TestServer;
  let accountId: string;
  before(async () => {
    server = await startTestServer({ clock });
    accountId = await defaultAccountId(server);
  });
  after(() => server.close());

  const pull = async (path: string): Promise<Array<Record<string, any>>> => {
    const response = await server.request('GET', path);
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = response.json();
    assert.deepEqual(Object.keys(body), ['results']);
    return body.results;
  };
  const drain = async (): Promise<void> => {
    while ((await pull('/rcs/2/reports?limit=1000')).length > 0);
    while ((await pull('/sms/3/reports?limit=1000')).length > 0);
  };

  it('answers an empty list when nothing is pending', async () => {
    await drain();
    assert.deepEqual((await server.request('GET', '/rcs/2/reports')).json(), { results: [] });
  });

  it('renders an RCS report with every field, in the order of the schema', async () => {
    await drain();
    const sentAt = clock.now();
    const [message] = await seedRcs(server.ctx.store, accountId, clock.now(), [
      {
        callbackData: 'custom-user-data',
        entityId: 'ext-entity-001',
        applicationId: 'ext-app-001',
        campaignReferenceId: 'CAMP-2026-Q1',
        sentAt,
        final: { status: DELIVERED, at: sentAt + 5000, mccMnc: '21910' },
      },
    ]);
    const response = await server.request('GET', '/rcs/2/reports');
    const [report, ...rest] = response.json().results;
    assert.equal(rest.length, 0);
    assert.deepEqual(Object.keys(report), REPORT_KEYS);
    assert.deepEqual(report, {
      bulkId: message!.bulkId,
      messageId: message!.messageId,
      to: USER,
      sender: AGENT,
      price: { pricePerMessage: 0, currency: 'EUR' },
      status: { groupId: 3, groupName: 'DELIVERED', id: 5, name: 'DELIVERED_TO_HANDSET', description: 'Message delivered to handset' },
      error: { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false },
      conversation: { canInitiate: true, id: null },
      interactionType: 'SINGLE_MESSAGE',
      sentAt: '2026-03-03T14:00:00.000+0000',
      doneAt: '2026-03-03T14:00:05.000+0000',
      messageCount: 1,
      mccMnc: '21910',
      callbackData: 'custom-user-data',
      platform: { entityId: 'ext-entity-001', applicationId: 'ext-app-001' },
      campaignReferenceId: 'CAMP-2026-Q1',
    });
  });

  it('reports an RCS failure with its chat error', async () => {
    await drain();
    const [message] = await seedRcs(server.ctx.store, accountId, clock.now(), [
      { final: { status: { groupId: 2, id: 4 }, errorId: ERROR.EC_UNKNOWN_USER.id, at: clock.now() } },
    ]);
    const [report] = await pull('/rcs/2/reports');
    assert.equal(report!.messageId, message!.messageId);
    assert.equal(report!.status.name, 'UNDELIVERABLE_REJECTED_OPERATOR');
    assert.deepEqual(report!.error, { groupId: 1, groupName: 'HANDSET_ERRORS', id: 7002, name: 'EC_UNKNOWN_USER', description: 'Unknown user', permanent: true });
    assert.deepEqual(report!.conversation, { canInitiate: false, id: null });
  });

  it("reports an RCS message and its SMS failover under the RCS message's id, each naming its channel", async () => {
    await drain();
    const at = clock.now();
    const { rcs, failover } = withFailover({ final: { status: UNDELIVERABLE, errorId: ERROR.EC_UNKNOWN_USER.id, at } });
    const [message] = await seedRcs(server.ctx.store, accountId, at, [rcs]);
    await seedMessages(server.ctx.store, accountId, at, [{ ...failover(message!.messageId), final: { status: DELIVERED, at: at + 1 } }]);
    const reports = await pull('/rcs/2/reports');
    assert.deepEqual(
      reports.map((r) => [r.messageId, r.channel, r.sender, r.status.groupName, 'interactionType' in r]),
      [
        [message!.messageId, 'RCS', AGENT, 'UNDELIVERABLE', true],
        [message!.messageId, 'SMS', 'InfoSMS', 'DELIVERED', false],
      ],
    );
    assert.deepEqual(await pull('/sms/3/reports'), [], 'the SMS APIs never see an RCS failover');
  });

  it('hands each report out once, and keeps the SMS and RCS queues apart', async () => {
    await drain();
    const at = clock.now();
    const [first, second] = await seedRcs(server.ctx.store, accountId, at, [
      { final: { status: DELIVERED, at } },
      { final: { status: DELIVERED, at } },
    ]);
    const [sms] = await seedMessages(server.ctx.store, accountId, at, [{ final: { status: DELIVERED, at } }]);
    assert.deepEqual((await pull('/rcs/2/reports?limit=1')).map((r) => r.messageId), [first!.messageId]);
    assert.deepEqual((await pull('/rcs/2/reports')).map((r) => r.messageId), [second!.messageId]);
    assert.deepEqual(await pull('/rcs/2/reports'), []);
    assert.deepEqual((await pull('/sms/3/reports')).map((r) => r.messageId), [sms!.messageId]);
  });

  it('has no report for an intermediate status', async () => {
    await drain();
    const [message] = await seedRcs(server.ctx.store, accountId, clock.now(), [{ sentAt: clock.now() }]);
    await finish(server.ctx.store, accountId, message!.messageId, { status: PENDING_ACCEPTED, at: clock.now(), final: false });
    assert.deepEqual(await pull('/rcs/2/reports'), []);
  });

  it('filters by bulkId, messageId, entityId, applicationId and campaignReferenceId, leaving the rest pending', async () => {
    await drain();
    const at = clock.now();
    const [plain, inBulk, withEntity, withApp, withCampaign] = await seedRcs(server.ctx.store, accountId, at, [
      { final: { status: DELIVERED, at } },
      { bulkId: 'bulk-x', final: { status: DELIVERED, at } },
      { entityId: 'ent-x', final: { status: DELIVERED, at } },
      { applicationId: 'app-x', final: { status: DELIVERED, at } },
      { campaignReferenceId: 'camp-x', final: { status: DELIVERED, at } },
    ]);
    const ids = async (path: string) => (await pull(path)).map((r) => r.messageId);
    assert.deepEqual(await ids(`/rcs/2/reports${qs([['messageId', plain!.messageId]])}`), [plain!.messageId]);
    assert.deepEqual(await ids('/rcs/2/reports?bulkId=bulk-x'), [inBulk!.messageId]);
    assert.deepEqual(await ids('/rcs/2/reports?entityId=ent-x'), [withEntity!.messageId]);
    assert.deepEqual(await ids('/rcs/2/reports?applicationId=app-x'), [withApp!.messageId]);
    assert.deepEqual(await ids('/rcs/2/reports?campaignReferenceId=camp-x'), [withCampaign!.messageId]);
    assert.deepEqual(await ids('/rcs/2/reports?bulkId=no-such-bulk'), []);
    assert.deepEqual(await pull('/rcs/2/reports'), []);
  });

  it('returns at most limit reports, 50 by default, oldest first', async () => {
    await drain();
    const at = clock.now();
    const seeded = await seedRcs(server.ctx.store, accountId, at, Array.from({ length: 52 }, () => ({ final: { status: DELIVERED, at } })));
    const batch = await pull('/rcs/2/reports');
    assert.deepEqual(batch.map((r) => r.messageId), seeded.slice(0, 50).map((m) => m.messageId));
    assert.equal((await pull('/rcs/2/reports?limit=1000')).length, 2);
  });

  it('rejects a limit out of range in the new envelope, naming limit', async () => {
    for (const limit of ['0', '1001', 'abc']) {
      const response = await server.request('GET', `/rcs/2/reports?limit=${limit}`);
      assert.equal(response.status, 400, limit);
      const body = response.json();
      assert.equal(body.errorCode, 'E400');
      assert.deepEqual(body.violations.map((v: { property: string }) => v.property), ['limit'], limit);
    }
  });

  it('reaches only reports of the last 48 hours', async () => {
    await drain();
    const [old] = await seedRcs(server.ctx.store, accountId, clock.now(), [{ final: { status: DELIVERED, at: clock.now() } }]);
    clock.advance(2 * HOUR);
    const [recent] = await seedRcs(server.ctx.store, accountId, clock.now(), [{ final: { status: DELIVERED, at: clock.now() } }]);
    clock.advance(46 * HOUR + 1);
    const results = await pull('/rcs/2/reports');
    assert.deepEqual(results.map((r) => r.messageId), [recent!.messageId]);
    assert.notEqual(results[0]!.messageId, old!.messageId);
  });
});
