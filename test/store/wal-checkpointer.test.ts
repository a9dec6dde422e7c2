import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { WalCheckpointer } from '../../src/core/store/sqlite/wal-checkpointer.js';
import { eventually } from '../helpers/server.js';

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A WAL database that never checkpoints by itself, as the acceptance and engine connections are opened. */
async function writer(): Promise<{ db: Database.Database; file: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-wal-'));
  dirs.push(dir);
  const file = path.join(dir, 'test.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
  return { db, file };
}

/** About `pages` WAL pages of new rows, one transaction per 20. */
function writePages(db: Database.Database, pages: number): void {
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  const batch = db.transaction((count: number) => {
    for (let i = 0; i < count; i++) insert.run(Buffer.alloc(3000, i));
  });
  for (let done = 0; done < pages; done += 20) batch(20);
}

const size = (file: string): number => statSync(file).size;

describe('WalCheckpointer', () => {
  it('copies committed pages into the database file, so the WAL is rewound and stays short', async () => {
    const { db, file } = await writer();
    const dbBefore = size(file);
    const checkpointer = new WalCheckpointer(file, { intervalMs: 5, restartFrames: 100 }, { onError: assert.fail, onDeath: assert.fail });
    try {
      // A steady load in which the thread gets its turn at the lock: each round waits until its
      // pages (a row fills a page of its own) were copied, however slowly a loaded machine runs the thread.
      for (let round = 0; round < 50; round++) {
        writePages(db, 20);
        const copied = dbBefore + (round + 1) * 20 * 4096;
        await eventually(async () => (size(file) >= copied ? true : undefined), 5000, 2);
      }
      // 1 000 pages written; rewound after checkpoints, the WAL reuses its pages instead of holding them all.
      assert.ok(size(`${file}-wal`) < 500 * 4096, `WAL of ${size(`${file}-wal`)} bytes`);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('lets the WAL grow without it, which is what the rewind prevents', async () => {
    const { db, file } = await writer();
    for (let round = 0; round < 50; round++) {
      writePages(db, 20);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.ok(size(`${file}-wal`) > 900 * 4096);
    db.close();
  });

  it('checkpoints once more when stopped', async () => {
    const { db, file } = await writer();
    const dbBefore = size(file);
    const checkpointer = new WalCheckpointer(file, { intervalMs: 60_000, restartFrames: 1_000_000 }, { onError: assert.fail, onDeath: assert.fail });
    writePages(db, 100);
    await checkpointer.stop();
    assert.ok(size(file) > dbBefore + 80 * 4096, 'the rows reached the database file');
    db.close();
  });

  it('reports a thread that ends without being stopped, so the caller can checkpoint itself', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-wal-'));
    dirs.push(dir);
    let died: Error | undefined;
    // A directory is no database: the thread cannot open it and ends.
    const checkpointer = new WalCheckpointer(dir, { intervalMs: 10, restartFrames: 100 }, { onError: () => {}, onDeath: (error) => (died = error) });
    const error = await eventually(async () => died);
    assert.ok(error instanceof Error);
    assert.match(error.message, /SQLITE_CANTOPEN/);
    await checkpointer.stop();
  });
});
