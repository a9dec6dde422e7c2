import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { initialMigration } from '../../src/core/store/sqlite/migrations/001-initial.js';
import { runMigrations } from '../../src/core/store/sqlite/migrations/runner.js';
import { openSqliteStore } from '../../src/core/store/sqlite/sqlite-store.js';
import { cleanupStores, insertAll, newMessage, T0, tempSqlitePath } from '../helpers/stores.js';

after(cleanupStores);

describe('sqlite upgrade from the first schema', () => {
  it('moves the pipeline to its partial indexes and keeps every message workable', async () => {
    const file = tempSqlitePath();
    const first = new Database(file);
    runMigrations(first, [initialMigration]);
    first.close();

    const store = openSqliteStore(file);
    try {
      const account = await store.accounts.ensure('acme', T0);
      const [sent, waiting] = await insertAll(store, [newMessage(account.id), newMessage(account.id)]);
      assert.deepEqual((await store.messages.claimDue(T0, 1, T0 + 1000)).map((m) => m.pk), [sent]);
      await store.messages.markSubmitted([{ accountId: account.id, pk: sent!, carrier: 'sandbox', carrierMessageId: 'c-1', at: T0 }]);

      assert.deepEqual(await store.migrate(), ['002', '003']);

      const check = new Database(file, { readonly: true });
      const names = check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' ORDER BY name").pluck().all();
      check.close();
      assert.ok(names.includes('messages_queued_due') && names.includes('messages_dispatching_lease'));
      assert.ok(!names.includes('messages_state_due'));

      assert.deepEqual((await store.messages.findByCarrierIds('sandbox', ['c-1'])).map((m) => m.pk), [sent]);
      assert.deepEqual((await store.messages.claimDue(T0, 10, T0 + 1000)).map((m) => m.pk), [waiting]);
      assert.deepEqual((await store.messages.claimDue(T0 + 1001, 10, T0 + 2000)).map((m) => m.pk), [waiting], 'a lapsed lease is found again');
    } finally {
      await store.close();
    }
  });
});
