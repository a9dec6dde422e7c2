import { type Db, withoutBlockingOnLocks } from './shared.js';

interface QueuedWrite<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Small writes that requests make in the same turn of the event loop, committed together in one
 * transaction once the turn's I/O has been read: one commit (lock, WAL frames, wal-index) for all of
 * them instead of one each, and one contention with the engine's connection instead of many. A
 * batch that fails is written again one by one, so a bad write fails only its own caller.
 */
export class TurnWrites<T> {
  private queued: Array<QueuedWrite<T>> = [];
  private waitForDisk = false;
  private readonly writeAll = (items: Array<QueuedWrite<T>>): void => {
    for (const { item } of items) this.writeOne(item);
  };
  private transaction: ((items: Array<QueuedWrite<T>>) => void) | undefined;

  constructor(
    private readonly db: Db,
    private readonly writeOne: (item: T) => void,
  ) {}

  /** Resolves once the write is committed, and on disk too when `waitForDisk`. */
  add(item: T, waitForDisk: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queued.push({ item, resolve, reject });
      this.waitForDisk ||= waitForDisk;
      if (this.queued.length === 1) setImmediate(() => void this.commit());
    });
  }

  private async commit(): Promise<void> {
    const batch = this.queued;
    const waitForDisk = this.waitForDisk;
    this.queued = [];
    this.waitForDisk = false;
    this.transaction ??= this.db.transaction(this.writeAll).immediate;
    try {
      const transaction = this.transaction;
      await withoutBlockingOnLocks(this.db, () => transaction(batch), waitForDisk);
    } catch {
      for (const write of batch) withoutBlockingOnLocks(this.db, () => this.writeOne(write.item), waitForDisk).then(write.resolve, write.reject);
      return;
    }
    for (const write of batch) write.resolve();
  }
}
