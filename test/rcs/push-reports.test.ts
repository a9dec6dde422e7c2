import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { webhookItems } from '../../src/core/outbox/webhook-items.js';
import { reportDataFromMessage } from '../../src/core/store/report-data.js';
import type { StatusRef, StoredMessage } from '../../src/core/store/types.js';
import { renderDeliveryReport } from '../../src/sms/wire/report-shapes.js';
import { eventually, WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { defaultAccountId, DELIVERED, seedMessages } from '../sms/read-fixtures.js';
import { AGENT, seedRcs, USER, withFailover } from './rcs-fixtures.js';

/**
 * Pushed RCS delivery reports take the RCS shape. The status recorder is not RCS-aware yet, so the
 * change is applied as it will apply it: with its webhook items rendered by renderDeliveryReport.
 */
describe('pushed RCS delivery reports', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let accountId: string;
  before(async () => {
    server = await startTestServer();
    receiver = await WebhookReceiver.start();
    accountId = await defaultAccountId(server);
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const finishWithPush = async (message: StoredMessage, status: StatusRef, errorId: number, path: string): Promise<void> => {
    const at = Date.now();
    const payload = renderDeliveryReport(reportDataFromMessage(message, status, errorId, at));
    await server.ctx.store.messages.applyStatusChanges([
      { accountId, pk: message.pk, status, errorId, final: true, at, webhooks: webhookItems(accountId, [{ url: `${receiver.url}?${path}` }], 'rcs-dlr', payload, at) },
    ]);
    server.ctx.engine.nudgeWebhooks();
  };
  const resultsAt = (path: string, count: number) =>
    eventually(async () => {
      const results = receiver.posts.filter((p) => p.path === `/hook?${path}`).flatMap((p) => p.body.results as Array<Record<string, any>>);
      return results.length >= count ? results : undefined;
    });

  it('posts an RCS report in {results: [...]} with the RCS fields', async () => {
    const now = Date.now();
    const [message] = await seedRcs(server.ctx.store, accountId, now, [{ sentAt: now, callbackData: 'cb' }]);
    await finishWithPush(message!, DELIVERED, 0, 'plain');
    const [report] = await resultsAt('plain', 1);
    assert.equal(report!.messageId, message!.messageId);
    assert.equal(report!.to, USER);
    assert.equal(report!.sender, AGENT);
    assert.equal(report!.callbackData, 'cb');
    assert.deepEqual(report!.conversation, { canInitiate: true, id: null });
    assert.equal(report!.interactionType, 'SINGLE_MESSAGE');
    assert.deepEqual(report!.price, { pricePerMessage: 0, currency: 'EUR' });
    assert.equal('channel' in report!, false);
    assert.deepEqual(await server.request('GET', '/rcs/2/reports').then((r) => r.json()), { results: [] }, 'a pushed report is not pulled');
  });

  it('names the channel of each attempt of a message with an SMS failover', async () => {
    const now = Date.now();
    const { rcs, failover } = withFailover({ sentAt: now });
    const [message] = await seedRcs(server.ctx.store, accountId, now, [rcs]);
    const [sms] = await seedMessages(server.ctx.store, accountId, now, [{ ...failover(message!.messageId), sentAt: now }]);
    await finishWithPush(message!, { groupId: 2, id: 4 }, 7002, 'failover');
    await finishWithPush(sms!, DELIVERED, 0, 'failover');
    const reports = await resultsAt('failover', 2);
    assert.deepEqual(
      reports.map((r) => [r.messageId, r.channel, r.error.name, 'conversation' in r]).sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
      [
        [message!.messageId, 'RCS', 'EC_UNKNOWN_USER', true],
        [message!.messageId, 'SMS', 'NO_ERROR', false],
      ],
    );
  });
});
