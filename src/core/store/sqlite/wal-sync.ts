import { open, type FileHandle } from 'node:fs/promises';
import type { Db } from './shared.js';

/**
 * Durability of commits made with synchronous=NORMAL, by syncing the WAL file off the event loop.
 *
 * With synchronous=FULL, SQLite fsyncs the WAL inside every COMMIT: the calling thread stops for
 * the disk while it holds the write lock, so on the HTTP thread no request is parsed meanwhile
 * and the engine's connection waits for the lock. Here the acceptance connection commits with
 * NORMAL (the frames reach the WAL file, not yet the disk) and then awaits an fdatasync of the WAL
 * on libuv's thread pool before answering. Frames still in the WAL are made durable by it; frames
 * a checkpoint has already copied out were synced to the database file by that checkpoint before
 * the WAL could be reused. Concurrent commits share syncs: a caller waits for the first sync that
 * starts after its commit.
 */
class WalSync {
  private file: Promise<FileHandle> | undefined;
  private current: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(private readonly walPath: string) {}

  sync(): Promise<void> {
    if (this.current === undefined) return this.begin();
    // The running sync may have started before the caller's commit: the one after it covers it.
    this.next ??= this.current.then(
      () => this.startNext(),
      () => this.startNext(),
    );
    return this.next;
  }

  async close(): Promise<void> {
    await this.current?.catch(() => undefined);
    await this.next?.catch(() => undefined);
    const file = this.file;
    this.file = undefined;
    if (file) await (await file).close();
  }

  private startNext(): Promise<void> {
    this.next = undefined;
    return this.begin();
  }

  private begin(): Promise<void> {
    const run = this.datasync();
    this.current = run;
    const clear = (): void => {
      if (this.current === run) this.current = undefined;
    };
    run.then(clear, clear);
    return run;
  }

  private async datasync(): Promise<void> {
    this.file ??= open(this.walPath, 'r+');
    let handle: FileHandle;
    try {
      handle = await this.file;
    } catch (error) {
      this.file = undefined;
      throw error;
    }
    await handle.datasync();
  }
}

const syncs = new WeakMap<Db, WalSync>();

/** From now on `durable(db)` syncs this database's WAL (the connection must use synchronous=NORMAL). */
export function syncWalAfterCommits(db: Db, databasePath: string): void {
  syncs.set(db, new WalSync(`${databasePath}-wal`));
}

/** Resolves once every commit made so far on `db` is on disk; at once for connections that commit with FULL. */
export function durable(db: Db): Promise<void> {
  return syncs.get(db)?.sync() ?? Promise.resolve();
}

export async function closeWalSync(db: Db): Promise<void> {
  await syncs.get(db)?.close();
  syncs.delete(db);
}
