import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from '../helpers/server.js';
import { TIME } from './read-fixtures.js';

interface Report {
  messageId: string;
  status: { groupName: string; name: string };
  [key: string]: unknown;
}

/** Sends through the real pipeline and sandbox (zero latency), then reads the results back. */
describe('SMS read side end to end', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  /** Pulls until a final report of `messageId` shows up; earlier (intermediate) reports are skipped. */
  const finalReport = (path: string, messageId: string): Promise<Report> =>
    eventually(async () => {
      const response = await server.request('GET', `${path}?messageId=${messageId}`);
      assert.equal(response.status, 200);
      const results: Report[] = response.json().results;
      return results.find((r) => r.messageId === messageId && r.status.groupName !== 'PENDING');
    }, 5000);

  it('delivers a v3 message and hands out its report, then shows it in the logs', async () => {
    const sent = await server.request('POST', '/sms/3/messages', {
      body: {
        messages: [
          {
            sender: 'ACME',
            destinations: [{ to: '41793026727' }, { to: '41793029001' }],
            content: { text: 'Hello from the read-side test' },
            options: { platform: { applicationId: 'app-e2e' }, campaignReferenceId: 'camp-e2e' },
            webhooks: { callbackData: 'e2e' },
          },
        ],
      },
    });
    assert.equal(sent.status, 200, sent.text);
    const [delivered, undeliverable] = sent.json().messages as Array<{ messageId: string }>;

    const report = await finalReport('/sms/3/reports', delivered!.messageId);
    assert.equal(report.status.name, 'DELIVERED_TO_HANDSET');
    assert.equal(report.to, '41793026727');
    assert.equal(report.sender, 'ACME');
    assert.equal(report.callbackData, 'e2e');
    assert.deepEqual(report.platform, { applicationId: 'app-e2e' });
    assert.equal(report.campaignReferenceId, 'camp-e2e');
    assert.equal(report.bulkId, sent.json().bulkId);
    assert.match(String(report.sentAt), TIME);
    assert.match(String(report.doneAt), TIME);

    const failed = await finalReport('/sms/1/reports', undeliverable!.messageId);
    assert.equal(failed.status.groupName, 'UNDELIVERABLE');
    assert.equal(failed.from, 'ACME');
    assert.equal(failed.applicationId, 'app-e2e');

    const again = await server.request('GET', `/sms/3/reports?messageId=${delivered!.messageId}`);
    assert.deepEqual(
      again.json().results.filter((r: Report) => r.status.groupName !== 'PENDING'),
      [],
      'a final report is handed out once',
    );

    const logs = (await server.request('GET', `/sms/3/logs?bulkId=${sent.json().bulkId}`)).json().results;
    assert.deepEqual(new Set(logs.map((l: { messageId: string }) => l.messageId)), new Set([delivered!.messageId, undeliverable!.messageId]));
    const log = logs.find((l: { messageId: string }) => l.messageId === delivered!.messageId);
    assert.equal(log.status.name, 'DELIVERED_TO_HANDSET');
    assert.deepEqual(log.content, { text: 'Hello from the read-side test' });
    assert.equal(log.destination, '41793026727');
    assert.match(log.doneAt, TIME);
  });

  it('shows a legacy send in the legacy logs with its text', async () => {
    const sent = await server.request('POST', '/sms/2/text/advanced', {
      body: { messages: [{ from: 'Legacy', destinations: [{ to: '41793026728' }], text: 'Legacy hello' }] },
    });
    assert.equal(sent.status, 200, sent.text);
    const { messageId } = sent.json().messages[0] as { messageId: string };
    const report = await finalReport('/sms/1/reports', messageId);
    assert.equal(report.status.name, 'DELIVERED_TO_HANDSET');
    assert.equal(report.smsCount, 1);
    const logs = (await server.request('GET', `/sms/1/logs?messageId=${messageId}`)).json().results;
    assert.equal(logs.length, 1);
    assert.equal(logs[0].text, 'Legacy hello');
    assert.equal(logs[0].from, 'Legacy');
    assert.equal(logs[0].to, '41793026728');
  });
});
