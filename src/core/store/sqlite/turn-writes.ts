import { type Db, withoutBlockingOnLocks } from './shared.js';

interface QueuedWrite<T, R> {
  item: T;
  waitForDisk: boolean;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Small writes that requests make in the same turn of the event loop, committed together in one
 * transaction once the turn's I/O has been read: one commit (lock, WAL frames, wal-index, sync) for
 * all of them instead of one each, and one contention with the engine's connection instead of many.
 * Each write still runs alone and in order inside it, so a conditional update sees the ones before.
 * A batch that fails is written again one by one, so a bad write fails only its own caller.
 */
export class TurnWrites<T, R = void> {
  private queued: Array<QueuedWrite<T, R>> = [];
  private transaction: ((items: Array<QueuedWrite<T, R>>) => R[]) | undefined;

  constructor(
    private readonly db: Db,
    private readonly writeOne: (item: T) => R,
  ) {}

  /** Resolves with the write's result once it is committed, and on disk too when `waitForDisk`. */
  add(item: T, waitForDisk: boolean): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queued.push({ item, waitForDisk, resolve, reject });
      if (this.queued.length === 1) setImmediate(() => void this.commit());
    });
  }

  private async commit(): Promise<void> {
    const batch = this.queued;
    this.queued = [];
    const waitForDisk = batch.some((write) => write.waitForDisk);
    this.transaction ??= this.db.transaction((items: Array<QueuedWrite<T, R>>) => items.map(({ item }) => this.writeOne(item))).immediate;
    let results: R[];
    try {
      const transaction = this.transaction;
      results = await withoutBlockingOnLocks(this.db, () => transaction(batch), waitForDisk);
    } catch {
      for (const write of batch) withoutBlockingOnLocks(this.db, () => this.writeOne(write.item), write.waitForDisk).then(write.resolve, write.reject);
      return;
    }
    batch.forEach((write, i) => write.resolve(results[i]!));
  }
}
