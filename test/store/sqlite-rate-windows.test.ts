import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteRateWindowStore } from '../../src/core/store/sqlite/rate-windows.js';
import { openSqliteStore } from '../../src/core/store/sqlite/sqlite-store.js';
import { eventually } from '../helpers/server.js';
import { cleanupStores, closeStore, MINUTE, T0, tempSqlitePath } from '../helpers/stores.js';

after(cleanupStores);

const WINDOW = MINUTE;
const START = T0 - (T0 % WINDOW);

async function migratedFile(): Promise<string> {
  const path = tempSqlitePath();
  const store = openSqliteStore(path);
  await store.migrate();
  await store.close();
  return path;
}

/** Counts as another connection reads them from the file. */
function storedCount(path: string, key: string): number | undefined {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare<[string], number>('SELECT count FROM rate_windows WHERE key = ?').pluck().get(key);
  } finally {
    db.close();
  }
}

describe('SQLite rate windows, counted in memory and written behind', () => {
  it('carries counts over a close and a reopen of the store', async () => {
    const path = tempSqlitePath();
    const first = openSqliteStore(path);
    await first.migrate();
    assert.equal(await first.rateWindows.takeAll([{ key: 'number', windowMs: WINDOW, limit: 3 }, { key: 'app', windowMs: WINDOW, limit: 10 }], START + 1), -1);
    assert.equal(await first.rateWindows.take('number', WINDOW, 3, START + 2), true);
    await closeStore(first);

    const second = openSqliteStore(path);
    assert.equal(await second.rateWindows.take('number', WINDOW, 3, START + 3), true, 'the third of three');
    assert.equal(await second.rateWindows.take('number', WINDOW, 3, START + 4), false, 'two were counted before the restart');
    assert.equal(await second.rateWindows.takeAll([{ key: 'app', windowMs: WINDOW, limit: 1 }], START + 5), 0, 'the set counted before the restart');
    await closeStore(second);
  });

  it('writes counts to the file without waiting for a close', async () => {
    const path = await migratedFile();
    const db = new Database(path);
    const windows = new SqliteRateWindowStore(db, { flushAfterMs: 20, maxWindows: 100 });
    try {
      await windows.take('written', WINDOW, 5, START);
      await windows.take('written', WINDOW, 5, START + 1);
      assert.equal(await eventually(async () => storedCount(path, 'written')), 2);
    } finally {
      await windows.flush();
      db.close();
    }
  });

  it('reads back windows dropped from memory past its cap, and those that did not fit at the start', async () => {
    const path = await migratedFile();
    const keys = Array.from({ length: 30 }, (_, i) => `key-${i}`);
    let db = new Database(path);
    let windows = new SqliteRateWindowStore(db, { flushAfterMs: 60_000, maxWindows: 10 });
    for (const key of keys) assert.equal(await windows.take(key, WINDOW, 1, START), true);
    await windows.flush();
    for (const key of keys) assert.equal(await windows.take(key, WINDOW, 1, START + 1), false, `${key} was counted, in memory or not`);
    await windows.flush();
    db.close();

    db = new Database(path);
    windows = new SqliteRateWindowStore(db, { flushAfterMs: 60_000, maxWindows: 10 });
    try {
      for (const key of keys) assert.equal(await windows.take(key, WINDOW, 1, START + 2), false, `${key} was counted before the restart`);
      assert.equal(await windows.take('key-new', WINDOW, 1, START + 3), true);
    } finally {
      await windows.flush();
      db.close();
    }
  });
});
