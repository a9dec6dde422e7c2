import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { ManualClock } from '../../../src/core/clock.js';
import { Metrics } from '../../../src/core/metrics.js';
import { WebhookSender } from '../../../src/core/outbox/webhook-sender.js';
import { openSqliteStore } from '../../../src/core/store/sqlite/sqlite-store.js';
import type { Store } from '../../../src/core/store/types.js';
import { cleanupStores, T0, tempSqlitePath } from '../../helpers/stores.js';
import { eventually, WebhookReceiver } from './webhook-receiver.js';

after(cleanupStores);

const RETRY_MS = 500;

function sender(store: Store, clock: ManualClock): WebhookSender {
  const s = new WebhookSender({
    store,
    clock,
    metrics: new Metrics({ defaultMetrics: false }),
    log: pino({ level: 'silent' }),
    retryMs: RETRY_MS,
    maxAttempts: 5,
    timeoutMs: 2000,
    pollMs: 5,
  });
  s.start();
  return s;
}

describe('webhook retries across a restart', () => {
  it('delivers a pending retry with a new sender on the reopened store file', async () => {
    const file = tempSqlitePath();
    const receiver = await WebhookReceiver.start([500, 200]);
    const clock = new ManualClock(T0);
    try {
      const first = openSqliteStore(file);
      await first.migrate();
      const account = await first.accounts.ensure('restart', T0);
      await first.outbox.enqueue([
        { accountId: account.id, url: receiver.url, format: 'sms-dlr', payload: { messageId: 'm1' }, createdAt: T0, dueAt: T0 },
      ]);
      const before = sender(first, clock);
      await receiver.waitForPosts(1);
      const pending = await eventually(async () => {
        const [item] = await first.outbox.listItems(account.id, 'pending', 10);
        return item && item.attempts === 1 ? item : undefined;
      });
      await before.stop();
      await first.close();

      const second = openSqliteStore(file);
      try {
        await second.migrate();
        clock.set(pending.dueAt);
        const after = sender(second, clock);
        await receiver.waitForPosts(2);
        const delivered = await eventually(async () => {
          const [item] = await second.outbox.listItems(account.id, 'delivered', 10);
          return item;
        });
        await after.stop();
        assert.equal(delivered.attempts, 2);
        assert.deepEqual(receiver.posts[1]!.body, { results: [{ messageId: 'm1' }] });
        const attempts = await second.outbox.listAttempts(account.id, 10);
        assert.deepEqual(attempts.map((a) => [a.attemptNo, a.outcome]), [[2, 'delivered'], [1, 'retry']]);
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
    }
  });
});
