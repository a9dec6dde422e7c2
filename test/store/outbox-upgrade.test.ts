import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import type postgres from 'postgres';
import { migration as pgInitial } from '../../src/core/store/postgres/migrations/001-initial.js';
import { pipelineIndexes as pgPipelineIndexes } from '../../src/core/store/postgres/migrations/002-pipeline-indexes.js';
import { initialMigration } from '../../src/core/store/sqlite/migrations/001-initial.js';
import { pipelineIndexesMigration } from '../../src/core/store/sqlite/migrations/002-pipeline-indexes.js';
import { runMigrations } from '../../src/core/store/sqlite/migrations/runner.js';
import { openSqliteStore } from '../../src/core/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/core/store/types.js';
import { upgradePostgres } from '../helpers/pg-upgrade.js';
import { cleanupStores, migrationsFrom, T0, tempSqlitePath } from '../helpers/stores.js';

after(cleanupStores);

/** What an upgraded store must show of one pending item and one attempt written before migration 003. */
async function assertUpgraded(store: Store, accountId: string): Promise<void> {
  assert.deepEqual(await store.migrate(), migrationsFrom(store.driver, '003'));
  const [item] = await store.outbox.claimDue(T0, 10, T0 + 1000);
  assert.deepEqual(
    [item?.url, item?.payloadCount, JSON.parse(item?.payloads ?? 'null'), item?.security],
    ['https://hooks.example.com/dlr', 1, [{ results: [{ messageId: 'm1' }] }], { type: 'BASIC', username: 'u', password: 'p' }],
  );
  const [attempt] = await store.outbox.listAttempts(accountId, 10);
  assert.deepEqual([attempt?.itemIds.length, attempt?.payloadCount], [2, 2]);
  assert.deepEqual(await store.outbox.countByState(), { pending: 1, delivered: 0, failed: 0 });
}

describe('outbox upgrade to grouped items', () => {
  it('sqlite: an item and an attempt written before keep working', async () => {
    const file = tempSqlitePath();
    const before = new Database(file);
    runMigrations(before, [initialMigration, pipelineIndexesMigration]);
    before.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'acme', 0)").run();
    before
      .prepare(
        `INSERT INTO outbox (account_id, url, format, payload, security, created_at, due_at)
         VALUES ('acc', 'https://hooks.example.com/dlr', 'sms-dlr', ?, ?, ?, ?)`,
      )
      .run(JSON.stringify({ results: [{ messageId: 'm1' }] }), JSON.stringify({ type: 'BASIC', username: 'u', password: 'p' }), T0, T0);
    before
      .prepare(
        `INSERT INTO webhook_attempts (account_id, url, item_ids, attempt_no, started_at, duration_ms, outcome)
         VALUES ('acc', 'https://hooks.example.com/dlr', '[7,8]', 1, ?, 3, 'delivered')`,
      )
      .run(T0);
    before.close();

    const store = openSqliteStore(file);
    try {
      await assertUpgraded(store, 'acc');
    } finally {
      await store.close();
    }
  });

  it('postgres: an item and an attempt written before keep working', { skip: !process.env.TEST_DATABASE_URL }, async () => {
    const seed = async (sql: postgres.Sql): Promise<void> => {
      await sql`INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'acme', 0)`;
      await sql`
        INSERT INTO outbox (account_id, url, format, payload, security, created_at, due_at)
        VALUES ('acc', 'https://hooks.example.com/dlr', 'sms-dlr', ${JSON.stringify({ results: [{ messageId: 'm1' }] })}::text::jsonb,
                ${JSON.stringify({ type: 'BASIC', username: 'u', password: 'p' })}::text::jsonb, ${T0}, ${T0})`;
      await sql`
        INSERT INTO webhook_attempts (account_id, url, item_ids, attempt_no, started_at, duration_ms, outcome)
        VALUES ('acc', 'https://hooks.example.com/dlr', '{7,8}', 1, ${T0}, 3, 'delivered')`;
    };
    await upgradePostgres([pgInitial, pgPipelineIndexes], seed, (store) => assertUpgraded(store, 'acc'));
  });
});
