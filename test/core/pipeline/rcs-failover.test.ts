import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { ERROR, STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import type { MessageWebhook, NewMessage } from '../../../src/core/store/types.js';
import { cleanupStores, insertAll, newMessage, storeDrivers, storePerTest, T0 } from '../../helpers/stores.js';
import { eventually, finalMessage, PipelinePerTest, statusOf } from './pipeline-fixture.js';

after(cleanupStores);

const CARD = { type: 'CARD', orientation: 'VERTICAL', alignment: 'LEFT', content: { title: 'Your order', suggestions: [{ type: 'REPLY', text: 'Track', postbackData: 'track' }] } };

for (const driver of storeDrivers()) {
  describe(`RCS on the pipeline, with SMS failover (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    const pipelines = new PipelinePerTest(store);

    const rcs = (destination: string, overrides: Partial<NewMessage> = {}, webhook: Partial<MessageWebhook> = {}): NewMessage =>
      newMessage(pipelines.accountId, {
        api: 'rcs2',
        channel: 'RCS',
        sender: 'AcmeAgent',
        destination,
        content: CARD as NewMessage['content'],
        encoding: 'RCS',
        webhook: { intermediateReport: false, notify: true, ...webhook },
        ...overrides,
      });
    const rcsReports = () => store().reports.consume({ accountId: pipelines.accountId, api: 'rcs', since: 0, limit: 10 });
    const smsReports = () => store().reports.consume({ accountId: pipelines.accountId, since: 0, limit: 10 });

    it('delivers RCS to a capable phone, which shows its content', async (t) => {
      t.after(pipelines.stop);
      const p = await pipelines.start(new ManualClock(T0));
      const message = rcs('41793026727');
      await insertAll(store(), [message]);
      p.dispatcher.nudge();
      const done = await finalMessage(store(), pipelines.accountId, message.messageId);
      assert.deepEqual([statusOf(done), done.carrier], [ref(STATUS.DELIVERED_TO_HANDSET), 'sandbox']);
      const [entry] = await store().phones.list(pipelines.accountId, '41793026727', 10);
      assert.deepEqual([entry?.channel, entry?.from, entry?.content, entry?.payload], ['RCS', 'AcmeAgent', CARD, undefined]);
      const reports = await rcsReports();
      assert.deepEqual(reports.map((r) => [r.messageId, r.channel]), [[message.messageId, undefined]], 'no channel without a failover');
      assert.deepEqual(await smsReports(), [], 'RCS reports are not the SMS APIs\'');
    });

    it('ends RCS to a phone that cannot take it with EC_UNKNOWN_USER when there is no failover', async (t) => {
      t.after(pipelines.stop);
      const p = await pipelines.start(new ManualClock(T0));
      const message = rcs('41793029021');
      await insertAll(store(), [message]);
      p.dispatcher.nudge();
      const done = await finalMessage(store(), pipelines.accountId, message.messageId);
      assert.deepEqual([statusOf(done), done.errorId], [ref(STATUS.UNDELIVERABLE_REJECTED_OPERATOR), ERROR.EC_UNKNOWN_USER.id]);
      assert.deepEqual(await store().messages.listLogs({ accountId: pipelines.accountId, since: 0, limit: 10 }), [], 'no SMS was made');
      assert.deepEqual((await store().phones.list(pipelines.accountId, '41793029021', 10)).length, 0);
    });

    it('fails over to SMS: the SMS reaches the phone and reports under the RCS id, alone unless every channel is asked for', async (t) => {
      t.after(pipelines.stop);
      const p = await pipelines.start(new ManualClock(T0));
      const regional = { indiaDlt: { principalEntityId: 'pe-1', contentTemplateId: 'ct-1' } };
      const quiet = rcs('41793029021', { extras: { smsFailover: { text: 'Your order shipped', sender: 'ACME' }, smsFailoverRegional: regional } });
      const chatty = rcs('41793019021', { extras: { smsFailover: { text: 'Also shipped' } } }, { receiveTriggeredFailoverReports: true });
      await insertAll(store(), [quiet, chatty]);
      p.dispatcher.nudge();

      const sms = await eventually(async () => {
        const logs = await store().messages.listLogs({ accountId: pipelines.accountId, since: 0, limit: 10 });
        return logs.length === 2 && logs.every((m) => m.state === 'final') ? logs : undefined;
      });
      const smsFor = (id: string) => sms.find((m) => m.extras?.failoverOf === id)!;
      assert.deepEqual(smsFor(quiet.messageId).extras, { failoverOf: quiet.messageId, regional }, "the failover's regional goes with its SMS");
      assert.deepEqual(smsFor(chatty.messageId).extras, { failoverOf: chatty.messageId });
      assert.deepEqual([smsFor(quiet.messageId).sender, smsFor(quiet.messageId).content], ['ACME', { text: 'Your order shipped' }]);
      assert.equal(smsFor(chatty.messageId).sender, 'AcmeAgent', "without the failover's sender, the RCS sender");
      assert.deepEqual(statusOf(smsFor(quiet.messageId)), ref(STATUS.DELIVERED_TO_HANDSET));
      assert.deepEqual((await store().phones.list(pipelines.accountId, '41793029021', 10)).map((e) => [e.channel, e.text]), [['SMS', 'Your order shipped']]);

      const reports = await rcsReports();
      const of = (id: string) => reports.filter((r) => r.messageId === id).map((r) => [r.channel, r.status, r.errorId]);
      const delivered = ['SMS', ref(STATUS.DELIVERED_TO_HANDSET), ERROR.NO_ERROR.id];
      assert.deepEqual(of(quiet.messageId), [delivered], 'only the final channel');
      assert.deepEqual(of(chatty.messageId), [['RCS', ref(STATUS.PENDING_ENROUTE), ERROR.EC_UNKNOWN_USER.id], delivered], 'every channel, RCS first');
      for (const message of [quiet, chatty]) {
        const stored = await store().messages.get(pipelines.accountId, message.messageId);
        assert.deepEqual([stored?.state, statusOf(stored!), stored?.errorId], ['final', ref(STATUS.PENDING_ENROUTE), ERROR.EC_UNKNOWN_USER.id], 'stored as reported');
      }
      assert.deepEqual(await smsReports(), [], 'a failover reports to the RCS API');
    });
  });
}
