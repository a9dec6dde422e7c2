import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { defaultAccountId, HOUR, seedInbound, TIME } from './read-fixtures.js';

interface InboxBody {
  results: Array<Record<string, unknown>>;
  messageCount: number;
  pendingMessageCount: number;
}

describe('GET /sms/1/inbox/reports', () => {
  const clock = new ManualClock(Date.UTC(2025, 2, 4, 10, 0, 0));
  let server: TestServer;
  let accountId: string;
  before(async () => {
    server = await startTestServer({ clock });
    accountId = await defaultAccountId(server);
  });
  after(() => server.close());

  const inbox = async (path = '/sms/1/inbox/reports'): Promise<InboxBody> => {
    const response = await server.request('GET', path);
    assert.equal(response.status, 200, response.text);
    const body = response.json();
    assert.deepEqual(Object.keys(body), ['results', 'messageCount', 'pendingMessageCount']);
    return body;
  };
  const drain = async (): Promise<void> => {
    while ((await inbox('/sms/1/inbox/reports?limit=1000')).messageCount > 0);
  };

  it('is empty with zero counts when nothing arrived', async () => {
    await drain();
    assert.deepEqual(await inbox(), { results: [], messageCount: 0, pendingMessageCount: 0 });
  });

  it('renders every field of an inbound message', async () => {
    await drain();
    const message = await seedInbound(server.ctx.store, accountId, clock.now(), {
      callbackData: 'cb',
      applicationId: 'app-1',
      entityId: 'ent-1',
      campaignReferenceId: 'camp-1',
    });
    const body = await inbox();
    assert.equal(body.messageCount, 1);
    assert.equal(body.pendingMessageCount, 0);
    assert.deepEqual(body.results[0], {
      messageId: message.messageId,
      from: '385916242493',
      to: '385921004026',
      text: 'QUIZ Correct answer is Paris',
      cleanText: 'Correct answer is Paris',
      keyword: 'QUIZ',
      receivedAt: '2025-03-04T10:00:00.000+0000',
      smsCount: 1,
      price: { pricePerMessage: 0, currency: 'EUR' },
      callbackData: 'cb',
      applicationId: 'app-1',
      entityId: 'ent-1',
      campaignReferenceId: 'camp-1',
    });
    assert.equal(typeof body.results[0]!.messageId, 'string');
    assert.match(String(body.results[0]!.receivedAt), TIME);
  });

  it('omits keyword and other absent fields', async () => {
    await drain();
    await seedInbound(server.ctx.store, accountId, clock.now(), { keyword: undefined, text: 'hello', cleanText: 'hello' });
    const [result] = (await inbox()).results;
    assert.deepEqual(Object.keys(result!), ['messageId', 'from', 'to', 'text', 'cleanText', 'receivedAt', 'smsCount', 'price']);
  });

  it('hands each message out once, oldest first, counting the pending ones down', async () => {
    await drain();
    const seeded = [];
    for (let i = 0; i < 5; i++) seeded.push(await seedInbound(server.ctx.store, accountId, clock.now() + i));
    const first = await inbox('/sms/1/inbox/reports?limit=2');
    assert.deepEqual(first.results.map((r) => r.messageId), seeded.slice(0, 2).map((m) => m.messageId));
    assert.equal(first.messageCount, 2);
    assert.equal(first.pendingMessageCount, 3);
    const second = await inbox('/sms/1/inbox/reports?limit=2');
    assert.deepEqual(second.results.map((r) => r.messageId), seeded.slice(2, 4).map((m) => m.messageId));
    assert.equal(second.pendingMessageCount, 1);
    const third = await inbox();
    assert.equal(third.messageCount, 1);
    assert.equal(third.pendingMessageCount, 0);
    assert.deepEqual(await inbox(), { results: [], messageCount: 0, pendingMessageCount: 0 });
  });

  it('filters by applicationId, entityId and campaignReferenceId, leaving the rest pending', async () => {
    await drain();
    const now = clock.now();
    const app = await seedInbound(server.ctx.store, accountId, now, { applicationId: 'app-x' });
    const entity = await seedInbound(server.ctx.store, accountId, now, { entityId: 'ent-x' });
    const campaign = await seedInbound(server.ctx.store, accountId, now, { campaignReferenceId: 'camp-x' });
    await seedInbound(server.ctx.store, accountId, now);
    const byApp = await inbox('/sms/1/inbox/reports?applicationId=app-x');
    assert.deepEqual(byApp.results.map((r) => r.messageId), [app.messageId]);
    assert.equal(byApp.pendingMessageCount, 0, 'pending counts messages matching the same filter');
    assert.deepEqual((await inbox('/sms/1/inbox/reports?entityId=ent-x')).results.map((r) => r.messageId), [entity.messageId]);
    assert.deepEqual((await inbox('/sms/1/inbox/reports?campaignReferenceId=camp-x')).results.map((r) => r.messageId), [campaign.messageId]);
    const rest = await inbox();
    assert.equal(rest.messageCount, 1);
  });

  it('rejects a bad limit in the legacy envelope, naming limit', async () => {
    for (const limit of ['0', '1001', 'many']) {
      const response = await server.request('GET', `/sms/1/inbox/reports?limit=${limit}`);
      assert.equal(response.status, 400, limit);
      const exception = response.json().requestError.serviceException;
      assert.equal(exception.messageId, 'BAD_REQUEST');
      assert.deepEqual(Object.keys(exception.validationErrors), ['limit']);
    }
  });

  it('reaches only messages received in the last 48 hours', async () => {
    await drain();
    const old = await seedInbound(server.ctx.store, accountId, clock.now());
    clock.advance(HOUR);
    const recent = await seedInbound(server.ctx.store, accountId, clock.now());
    clock.advance(47 * HOUR + 1);
    const body = await inbox();
    assert.deepEqual(body.results.map((r) => r.messageId), [recent.messageId]);
    assert.notEqual(body.results[0]!.messageId, old.messageId);
    assert.equal(body.pendingMessageCount, 0);
  });
});
