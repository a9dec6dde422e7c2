import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openStore } from '../../src/core/store/open-store.js';
import { openSqliteStore } from '../../src/core/store/sqlite/sqlite-store.js';
import { cleanupStores, closeStore, HOUR, insertAll, newMessage, T0, tempSqlitePath } from '../helpers/stores.js';

after(cleanupStores);

describe('sqlite file', () => {
  it('migrates a new file once', async () => {
    const store = openSqliteStore(tempSqlitePath());
    try {
      assert.deepEqual(await store.migrate(), ['001', '002', '003', '004', '005', '006', '007', '008', '009', '010', '011', '012', '013', '014']);
      assert.deepEqual(await store.migrate(), []);
    } finally {
      await store.close();
    }
  });

  it('keeps data across close and reopen, in WAL mode', async () => {
    const file = tempSqlitePath();
    const first = openSqliteStore(file);
    await first.migrate();
    const account = await first.accounts.ensure('acme', T0);
    const message = newMessage(account.id);
    const [pk] = await insertAll(first, [message]);
    await first.close();

    const reopened = openSqliteStore(file);
    try {
      assert.deepEqual(await reopened.migrate(), []);
      assert.deepEqual(await reopened.accounts.findByName('acme'), account);
      assert.deepEqual(await reopened.messages.get(account.id, message.messageId), { ...message, pk, attempts: 0 });
    } finally {
      await reopened.close();
    }

    const raw = new Database(file, { readonly: true });
    try {
      assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
    } finally {
      raw.close();
    }
  });

  it('lets two connections to one file (server and CLI) share data without double claims', async () => {
    const file = tempSqlitePath();
    const server = openSqliteStore(file);
    const cli = openSqliteStore(file);
    try {
      await Promise.all([server.migrate(), cli.migrate()]);
      const account = await cli.accounts.ensure('acme', T0);
      await insertAll(cli, Array.from({ length: 10 }, () => newMessage(account.id)));

      const [fromServer, fromCli] = await Promise.all([
        server.messages.claimDue(T0, 6, T0 + HOUR),
        cli.messages.claimDue(T0, 6, T0 + HOUR),
      ]);
      const pks = [...fromServer, ...fromCli].map((m) => m.pk);
      assert.equal(pks.length, 10);
      assert.equal(new Set(pks).size, 10);
    } finally {
      await server.close();
      await cli.close();
    }
  });

  it('claims nothing without taking the write lock when nothing is due', async () => {
    const file = tempSqlitePath();
    const engine = openSqliteStore(file, 'engine');
    await engine.migrate();
    const account = await engine.accounts.ensure('acme', T0);
    await insertAll(engine, [{ ...newMessage(account.id), dueAt: T0 + HOUR }]);
    const writer = new Database(file);
    writer.pragma('busy_timeout = 0');
    writer.exec('BEGIN IMMEDIATE');
    try {
      // With the lock held elsewhere, a claim that tried to write would wait out the busy timeout and fail.
      assert.deepEqual(await engine.messages.claimDue(T0, 50, T0 + HOUR), []);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
      await engine.close();
    }
    const reopened = openSqliteStore(file, 'engine');
    try {
      assert.equal((await reopened.messages.claimDue(T0 + HOUR, 50, T0 + 2 * HOUR)).length, 1, 'due later, claimed then');
    } finally {
      await reopened.close();
    }
  });

  it('openStore opens <dataDir>/switchboard.db, creating the directory', async () => {
    const dataDir = path.join(path.dirname(tempSqlitePath()), 'nested', 'data');
    const store = await openStore({ dataDir });
    try {
      assert.equal(store.driver, 'sqlite');
      await store.migrate();
      assert.ok(existsSync(path.join(dataDir, 'switchboard.db')));
    } finally {
      await closeStore(store);
    }
  });
});
