import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import type postgres from 'postgres';
import { migration as pgInitial } from '../../src/core/store/postgres/migrations/001-initial.js';
import { pipelineIndexes as pgPipelineIndexes } from '../../src/core/store/postgres/migrations/002-pipeline-indexes.js';
import { groupedOutbox as pgGroupedOutbox } from '../../src/core/store/postgres/migrations/003-grouped-outbox.js';
import { initialMigration } from '../../src/core/store/sqlite/migrations/001-initial.js';
import { pipelineIndexesMigration } from '../../src/core/store/sqlite/migrations/002-pipeline-indexes.js';
import { groupedOutboxMigration } from '../../src/core/store/sqlite/migrations/003-grouped-outbox.js';
import { runMigrations } from '../../src/core/store/sqlite/migrations/runner.js';
import { openSqliteStore } from '../../src/core/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/core/store/types.js';
import { upgradePostgres } from '../helpers/pg-upgrade.js';
import { cleanupStores, DELIVERED, HOUR, migrationsFrom, T0, tempSqlitePath } from '../helpers/stores.js';

after(cleanupStores);

/**
 * Two delivered messages written before migration 004: `m-pending` with its report not yet pulled,
 * `m-pulled` with its report consumed. Columns in the order of MESSAGE_COLUMNS.
 */
const MESSAGE_COLUMNS = `account_id, message_id, bulk_id, api, destination, content, encoding, message_count, webhook,
  created_at, due_at, valid_until, state, status_group_id, status_id, error_id, sent_at, done_at`;
const messageValues = (messageId: string) =>
  ['acc', messageId, 'bulk-1', 'sms3', '41793026727', '{"text":"hi"}', 'GSM7', 1, '{}', T0, T0, T0 + 48 * HOUR, 'final', DELIVERED.groupId, DELIVERED.id, 0, T0 + 1, T0 + 2] as const;

/** What an upgraded store must show: the pending report once, as the message says, and nothing of the pulled one. */
async function assertUpgraded(store: Store): Promise<void> {
  assert.deepEqual(await store.migrate(), migrationsFrom(store.driver, '004'));
  assert.deepEqual(await store.reports.consume({ accountId: 'acc', since: 0, limit: 10 }), [
    {
      bulkId: 'bulk-1',
      messageId: 'm-pending',
      to: '41793026727',
      sentAt: T0 + 1,
      doneAt: T0 + 2,
      messageCount: 1,
      status: DELIVERED,
      errorId: 0,
      api: 'sms3',
    },
  ]);
  assert.deepEqual(await store.reports.consume({ accountId: 'acc', since: 0, limit: 10 }), []);
  // Messages stored before every later migration are still found by id and listed, newest first.
  assert.equal((await store.messages.get('acc', 'm-pulled'))?.messageId, 'm-pulled');
  assert.deepEqual(await store.messages.existingMessageIds('acc', ['m-pending', 'm-pulled', 'm-new']), new Set(['m-pending', 'm-pulled']));
  const logs = await store.messages.listLogs({ accountId: 'acc', since: 0, limit: 10 });
  assert.deepEqual(logs.map((m) => m.messageId), ['m-pulled', 'm-pending']);
  // Both are purgeable now that neither report is pending.
  assert.equal(await store.messages.purgeBefore(T0 + HOUR), 2);
}

describe('pull reports upgrade to flags on messages', () => {
  it('sqlite: a pending report carries over, a consumed one does not', async () => {
    const file = tempSqlitePath();
    const before = new Database(file);
    runMigrations(before, [initialMigration, pipelineIndexesMigration, groupedOutboxMigration]);
    before.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'acme', 0)").run();
    const insert = before.prepare(`INSERT INTO messages (${MESSAGE_COLUMNS}) VALUES (${Array(18).fill('?').join(', ')})`);
    const pending = Number(insert.run(...messageValues('m-pending')).lastInsertRowid);
    const pulled = Number(insert.run(...messageValues('m-pulled')).lastInsertRowid);
    const report = before.prepare(
      `INSERT INTO reports (account_id, message_pk, bulk_id, message_id, created_at, consumed_at, data)
       VALUES ('acc', ?, 'bulk-1', ?, ?, ?, '{}')`,
    );
    report.run(pending, 'm-pending', T0 + 2, null);
    report.run(pulled, 'm-pulled', T0 + 2, T0 + 3);
    before.close();

    const store = openSqliteStore(file);
    try {
      await assertUpgraded(store);
    } finally {
      await store.close();
    }
  });

  it('postgres: a pending report carries over, a consumed one does not', { skip: !process.env.TEST_DATABASE_URL }, async () => {
    const seed = async (sql: postgres.Sql): Promise<void> => {
      await sql`INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'acme', 0)`;
      const pks: number[] = [];
      for (const messageId of ['m-pending', 'm-pulled']) {
        const params = messageValues(messageId).map((value) => String(value));
        const [row] = await sql.unsafe(
          `INSERT INTO messages (${MESSAGE_COLUMNS})
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8::int, $9::jsonb, $10::int8, $11::int8, $12::int8, $13, $14::int,
                   $15::int, $16::int, $17::int8, $18::int8)
           RETURNING pk`,
          params,
        );
        pks.push(Number(row!.pk));
      }
      await sql`
        INSERT INTO reports (account_id, message_pk, bulk_id, message_id, created_at, consumed_at, data)
        VALUES ('acc', ${pks[0]!}, 'bulk-1', 'm-pending', ${T0 + 2}, NULL, '{}'),
               ('acc', ${pks[1]!}, 'bulk-1', 'm-pulled', ${T0 + 2}, ${T0 + 3}, '{}')`;
    };
    await upgradePostgres([pgInitial, pgPipelineIndexes, pgGroupedOutbox], seed, assertUpgraded);
  });
});
