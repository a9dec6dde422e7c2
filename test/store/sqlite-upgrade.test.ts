import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { initialMigration } from '../../src/core/store/sqlite/migrations/001-initial.js';
import { runMigrations } from '../../src/core/store/sqlite/migrations/runner.js';
import { openSqliteStore } from '../../src/core/store/sqlite/sqlite-store.js';
import { cleanupStores, newMessage, T0, tempSqlitePath } from '../helpers/stores.js';

after(cleanupStores);

describe('sqlite upgrade from the first schema', () => {
  it('moves the pipeline to its partial indexes and keeps every message workable', async () => {
    const file = tempSqlitePath();
    const first = new Database(file);
    runMigrations(first, [initialMigration]);
    // Rows as the first schema's code wrote them: one message submitted, one waiting.
    first.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'acme', 0)").run();
    const insert = first.prepare(
      `INSERT INTO messages (account_id, message_id, bulk_id, api, destination, content, encoding, message_count, webhook,
         created_at, due_at, valid_until, state, status_group_id, status_id, error_id)
       VALUES (@accountId, @messageId, @bulkId, @api, @destination, @content, @encoding, @messageCount, @webhook,
         @createdAt, @dueAt, @validUntil, @state, @groupId, @statusId, @errorId)`,
    );
    const firstSchemaRow = () => {
      const m = newMessage('acc');
      return { ...m, content: JSON.stringify(m.content), webhook: JSON.stringify(m.webhook), groupId: m.status.groupId, statusId: m.status.id };
    };
    const sent = Number(insert.run(firstSchemaRow()).lastInsertRowid);
    const waiting = Number(insert.run(firstSchemaRow()).lastInsertRowid);
    first
      .prepare("UPDATE messages SET state = 'submitted', carrier = 'sandbox', carrier_message_id = 'c-1', sent_at = ? WHERE pk = ?")
      .run(T0, sent);
    first.close();

    const store = openSqliteStore(file);
    try {
      assert.deepEqual(await store.migrate(), ['002', '003', '004', '005', '006', '007', '008', '009', '010', '011', '012', '013', '014']);

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
