import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { migrations } from '../../src/core/store/sqlite/migrations/index.js';
import { runMigrations } from '../../src/core/store/sqlite/migrations/runner.js';
import { openSqliteStore } from '../../src/core/store/sqlite/sqlite-store.js';
import { cleanupStores, insertAll, newMessage, T0, tempSqlitePath } from '../helpers/stores.js';

after(cleanupStores);

describe('virtual phone SMS upgrade to marks on messages', () => {
  it('sqlite: a phone lists the SMS recorded before with those it receives after', async () => {
    const file = tempSqlitePath();
    const before = new Database(file);
    runMigrations(before, migrations.filter((m) => m.version < '005'));
    before.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'acme', 0)").run();
    before
      .prepare(
        `INSERT INTO phone_messages (account_id, number, channel, from_number, text, message_id, received_at)
         VALUES ('acc', '41793026727', 'SMS', 'Bank', 'old code', 'm-old', ?)`,
      )
      .run(T0);
    before.close();

    const store = openSqliteStore(file);
    try {
      assert.deepEqual(await store.migrate(), ['005', '006', '007', '008', '009', '010', '011', '012', '013', '014']);
      const message = newMessage('acc', { content: { text: 'new code' } });
      const [pk] = await insertAll(store, [message]);
      await store.phones.recordSms([{ accountId: 'acc', pk: pk!, number: '41793026727', at: T0 + 1 }]);
      const texts = (await store.phones.list('acc', '41793026727', 10)).map((m) => [m.text, m.messageId]);
      assert.deepEqual(texts, [
        ['new code', message.messageId],
        ['old code', 'm-old'],
      ]);
    } finally {
      await store.close();
    }
  });
});
