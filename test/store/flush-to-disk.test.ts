import assert from 'node:assert/strict';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import { after, describe, it } from 'node:test';
import postgres from 'postgres';
import { openStore } from '../../src/core/store/open-store.js';
import { openSqliteStore, type SqliteRole } from '../../src/core/store/sqlite/sqlite-store.js';
import type { PhoneMessage, Store } from '../../src/core/store/types.js';
import { cleanupStores, newPostgresSchema, T0, tempSqlitePath } from '../helpers/stores.js';

after(cleanupStores);

const phoneMessage = (accountId: string): PhoneMessage => ({ accountId, number: '41793026727', channel: 'SMS', text: 'hi', receivedAt: T0 });

/** Open descriptors of this process on `file`: SQLite holds one; a WAL sync opens its own. */
function handlesOn(file: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

describe('flushToDisk on SQLite', { skip: !existsSync('/proc/self/fd') && 'needs /proc' }, () => {
  async function afterOneCommit(role: SqliteRole): Promise<{ store: Store; wal: string }> {
    const file = tempSqlitePath();
    const migrator = openSqliteStore(file);
    await migrator.migrate();
    const account = await migrator.accounts.ensure('acme', T0);
    await migrator.close();
    const store = openSqliteStore(file, role);
    await store.phones.recordMany([phoneMessage(account.id)]);
    return { store, wal: `${file}-wal` };
  }

  for (const role of ['engine', 'acceptance'] as const) {
    it(`syncs the WAL of an ${role} connection, which commits without waiting for the disk`, async () => {
      const { store, wal } = await afterOneCommit(role);
      try {
        const before = handlesOn(wal);
        await store.flushToDisk();
        assert.equal(handlesOn(wal), before + 1, 'the WAL was not opened for a sync');
        await store.flushToDisk();
        assert.equal(handlesOn(wal), before + 1, 'one handle serves every sync');
      } finally {
        await store.close();
      }
      assert.equal(handlesOn(wal), 0);
    });
  }

  it('completes many syncs asked for at once, beyond those that run side by side, before closing', async () => {
    const { store, wal } = await afterOneCommit('acceptance');
    const syncs = Array.from({ length: 20 }, () => store.flushToDisk());
    const closed = store.close();
    const outcomes = await Promise.allSettled(syncs);
    await closed;
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      syncs.map(() => 'fulfilled'),
    );
    assert.equal(handlesOn(wal), 0, 'the sync handle is closed after the last sync');
  });

  it('has nothing to sync where every commit waits for the disk', async () => {
    const { store, wal } = await afterOneCommit('all');
    try {
      const before = handlesOn(wal);
      await store.flushToDisk();
      assert.equal(handlesOn(wal), before);
    } finally {
      await store.close();
    }
  });
});

const postgresUrl = process.env.TEST_DATABASE_URL;

describe('flushToDisk on PostgreSQL', { skip: !postgresUrl && 'TEST_DATABASE_URL is not set' }, () => {
  it('flushes the WAL of commits made without waiting for it', async () => {
    const options = { url: postgresUrl!, dataDir: os.tmpdir(), schema: newPostgresSchema() };
    const durableStore = await openStore(options);
    const fast = await openStore({ ...options, durableCommits: false });
    const raw = postgres(postgresUrl!, { max: 1, onnotice: () => {} });
    try {
      await durableStore.migrate();
      const account = await fast.accounts.ensure('acme', T0);
      await fast.phones.recordMany([phoneMessage(account.id)]);
      const [written] = await raw`SELECT pg_current_wal_insert_lsn()::text AS lsn`;
      await fast.flushToDisk();
      const [flushed] = await raw`SELECT pg_current_wal_flush_lsn() >= ${written!.lsn}::pg_lsn AS done`;
      assert.equal(flushed!.done, true);
      await durableStore.flushToDisk();
      assert.equal((await durableStore.phones.list(account.id, '41793026727', 10)).length, 1);
    } finally {
      await raw.end();
      await fast.close();
      await durableStore.close();
    }
  });
});
