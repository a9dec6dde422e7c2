import type { MessageStore, NewMessage } from '../../core/store/types.js';

export type WriteResult = Array<number | 'duplicate'>;

interface PendingWrite {
  messages: NewMessage[];
  resolve: (results: WriteResult) => void;
  reject: (error: unknown) => void;
}

export interface MessageWriterDeps {
  store: { messages: Pick<MessageStore, 'insertMany'> };
  /** Called after each committed batch; the server uses it to wake the dispatcher. */
  onCommitted?: () => void;
  /** Rows that make a batch flush at once instead of at the end of the event-loop turn. */
  maxBatch?: number;
  /**
   * Batches being stored at once (default 2): while one waits for the disk to confirm its commit,
   * the next one commits, so the time a sync takes is not lost to every request behind it.
   */
  maxInFlight?: number;
}

/**
 * Group commit for accepted messages. Writes of concurrent requests are collected and stored with
 * one `insertMany` per batch, because one round trip per request caps acceptance far below what
 * the API must sustain. A batch opens on the first write, flushes on `setImmediate` (or at once when
 * `maxBatch` rows wait); up to `maxInFlight` batches are stored at once and the next accumulates
 * meanwhile. Each caller
 * gets the results of its own messages; a caller's messages are never split across batches, so a
 * request is stored all or nothing.
 */
export class MessageWriter {
  private readonly maxBatch: number;
  private queue: PendingWrite[] = [];
  private queuedRows = 0;
  private flushScheduled = false;
  private inFlight = 0;
  private readonly maxInFlight: number;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly deps: MessageWriterDeps) {
    this.maxBatch = deps.maxBatch ?? 5000;
    this.maxInFlight = deps.maxInFlight ?? 2;
  }

  /** Stores the messages; resolves, per message in order, with its pk or 'duplicate'. */
  write(messages: NewMessage[]): Promise<WriteResult> {
    if (messages.length === 0) return Promise.resolve([]);
    return new Promise<WriteResult>((resolve, reject) => {
      this.queue.push({ messages, resolve, reject });
      this.queuedRows += messages.length;
      if (this.queuedRows >= this.maxBatch) {
        this.startFlush();
      } else if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => {
          this.flushScheduled = false;
          this.startFlush();
        });
      }
    });
  }

  /** Resolves once every write made so far has been committed or failed. */
  flush(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.startFlush();
    });
  }

  private startFlush(): void {
    if (this.inFlight >= this.maxInFlight || this.queue.length === 0) return;
    const batch = this.takeBatch();
    this.inFlight++;
    void this.commit(batch).finally(() => {
      this.inFlight--;
      if (this.queue.length > 0) {
        this.startFlush();
      } else if (this.inFlight === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const wake of waiters) wake();
      }
    });
  }

  /** Whole callers, in arrival order, until the batch holds at least `maxBatch` rows. */
  private takeBatch(): PendingWrite[] {
    let rows = 0;
    let count = 0;
    while (count < this.queue.length && rows < this.maxBatch) {
      rows += this.queue[count]!.messages.length;
      count++;
    }
    const batch = this.queue.splice(0, count);
    this.queuedRows -= rows;
    return batch;
  }

  private async commit(batch: PendingWrite[]): Promise<void> {
    if (batch.length === 1) {
      await this.insert(batch[0]!.messages, batch);
      return;
    }
    const rows: NewMessage[] = [];
    for (const write of batch) for (const message of write.messages) rows.push(message);
    const ok = await this.insert(rows, batch, false);
    if (ok) return;
    // One request's bad row must not fail its neighbours: retry each caller on its own, so only
    // the writes that really cannot be stored get the error. Nothing was committed, so no caller
    // is stored twice.
    for (const write of batch) await this.insert(write.messages, [write]);
  }

  /**
   * Inserts `rows` (the concatenated messages of `batch`) and resolves each caller with its slice.
   * On failure rejects the callers when `rejectOnError`, else leaves them pending and returns false.
   */
  private async insert(rows: NewMessage[], batch: PendingWrite[], rejectOnError = true): Promise<boolean> {
    let results: WriteResult;
    try {
      results = await this.deps.store.messages.insertMany(rows);
    } catch (error) {
      if (rejectOnError) for (const write of batch) write.reject(error);
      return false;
    }
    let offset = 0;
    for (const write of batch) {
      const end = offset + write.messages.length;
      write.resolve(batch.length === 1 ? results : results.slice(offset, end));
      offset = end;
    }
    try {
      this.deps.onCommitted?.();
    } catch {
      // A failing listener must not turn committed writes into errors; the dispatcher also polls.
    }
    return true;
  }
}
