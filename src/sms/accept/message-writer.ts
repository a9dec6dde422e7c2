import type { Clock } from '../../core/clock.js';
import type { HandoffSlots } from '../../core/pipeline/handoff-slots.js';
import type { ClaimedMessage, MessageStore, NewMessage } from '../../core/store/types.js';
import { withFields } from '../../core/with-fields.js';

export type WriteResult = Array<number | 'duplicate'>;

interface PendingWrite {
  messages: NewMessage[];
  resolve: (results: WriteResult) => void;
  reject: (error: unknown) => void;
}

export interface MessageWriterDeps {
  store: { messages: Pick<MessageStore, 'insertMany'> };
  /**
   * Called after a committed batch that stored messages the dispatcher has to claim (`queued`); the
   * server uses it to wake the dispatcher. Handed-over messages wake it by arriving.
   */
  onCommitted?: () => void;
  /** Rows that make a batch flush at once instead of at the end of the event-loop turn. */
  maxBatch?: number;
  /**
   * Batches being stored at once (default 2): while one waits for the disk to confirm its commit,
   * the next one commits, so the time a sync takes is not lost to every request behind it.
   */
  maxInFlight?: number;
  /** Messages due now go to this node's dispatcher in memory, stored already claimed (see Handoff). */
  handoff?: Handoff;
}

/**
 * The fast path from acceptance to the dispatcher: a message due now, while the dispatcher has a
 * free slot, is stored already claimed (state `dispatching`, leased as a claim would lease it) and,
 * once committed, given to the dispatcher in memory, which saves the claim's write and read. If
 * this process dies before submitting it, the lease runs out and any node claims it from the store,
 * as it would a claimed message.
 */
export interface Handoff {
  slots: HandoffSlots;
  clock: Pick<Clock, 'now'>;
  leaseMs: number;
  /** The node whose dispatcher gets the messages, recorded as their claim's holder. */
  nodeId?: string;
  deliver(messages: ClaimedMessage[]): void;
}

/** Whether a committed batch stored a message for the dispatcher to claim (not handed over, not final). */
function storedQueued(rows: NewMessage[], results: WriteResult): boolean {
  for (let i = 0; i < rows.length; i++) if (rows[i]!.state === 'queued' && typeof results[i] === 'number') return true;
  return false;
}

const dueNow = (message: NewMessage, now: number): boolean =>
  message.state === 'queued' && message.dueAt <= now && message.deliveryWindow === undefined;

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
    const { rowsOf, reserved } = this.claimForHandoff(batch);
    const delivered = { count: 0 };
    try {
      if (batch.length === 1) {
        await this.insert(rowsOf[0]!, batch, delivered);
        return;
      }
      const rows: NewMessage[] = [];
      for (const own of rowsOf) for (const row of own) rows.push(row);
      const ok = await this.insert(rows, batch, delivered, false);
      if (ok) return;
      // One request's bad row must not fail its neighbours: retry each caller on its own, so only
      // the writes that really cannot be stored get the error. Nothing was committed, so no caller
      // is stored twice.
      for (let i = 0; i < batch.length; i++) await this.insert(rowsOf[i]!, [batch[i]!], delivered);
    } finally {
      this.deps.handoff?.slots.release(reserved - delivered.count);
    }
  }

  /** The rows to store per caller: as given, except those handed to the dispatcher, stored claimed. */
  private claimForHandoff(batch: PendingWrite[]): { rowsOf: NewMessage[][]; reserved: number } {
    const rowsOf = batch.map((write) => write.messages);
    const handoff = this.deps.handoff;
    if (!handoff) return { rowsOf, reserved: 0 };
    const now = handoff.clock.now();
    let due = 0;
    for (const rows of rowsOf) for (const message of rows) if (dueNow(message, now)) due++;
    const reserved = due === 0 ? 0 : handoff.slots.reserve(due);
    if (reserved === 0) return { rowsOf, reserved };
    let left = reserved;
    const leaseUntil = now + handoff.leaseMs;
    const { nodeId } = handoff;
    for (let i = 0; i < rowsOf.length && left > 0; i++) {
      rowsOf[i] = rowsOf[i]!.map((message): NewMessage => {
        if (left === 0 || !dueNow(message, now)) return message;
        left--;
        return nodeId === undefined
          ? withFields(message, { state: 'dispatching' as const, leaseUntil })
          : withFields(message, { state: 'dispatching' as const, leaseUntil, nodeId });
      });
    }
    return { rowsOf, reserved };
  }

  /**
   * Inserts `rows` (the concatenated messages of `batch`) and resolves each caller with its slice.
   * On failure rejects the callers when `rejectOnError`, else leaves them pending and returns false.
   */
  private async insert(
    rows: NewMessage[],
    batch: PendingWrite[],
    delivered: { count: number },
    rejectOnError = true,
  ): Promise<boolean> {
    let results: WriteResult;
    try {
      results = await this.deps.store.messages.insertMany(rows);
    } catch (error) {
      if (rejectOnError) for (const write of batch) write.reject(error);
      return false;
    }
    delivered.count += this.handOver(rows, results);
    let offset = 0;
    for (const write of batch) {
      const end = offset + write.messages.length;
      write.resolve(batch.length === 1 ? results : results.slice(offset, end));
      offset = end;
    }
    if (!storedQueued(rows, results)) return true;
    try {
      this.deps.onCommitted?.();
    } catch {
      // A failing listener must not turn committed writes into errors; the dispatcher also polls.
    }
    return true;
  }

  /** Gives the dispatcher the committed rows stored claimed; returns how many it got. */
  private handOver(rows: NewMessage[], results: WriteResult): number {
    const handoff = this.deps.handoff;
    if (!handoff) return 0;
    const claimed: ClaimedMessage[] = [];
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const pk = results[i];
      // A duplicate was not stored; its slot goes back.
      if (row.state !== 'dispatching' || typeof pk !== 'number') continue;
      // The row is the writer's own copy (claimForHandoff): completed in place, not copied again.
      const message = row as ClaimedMessage;
      message.pk = pk;
      message.attempts = 1;
      claimed.push(message);
    }
    if (claimed.length === 0) return 0;
    try {
      handoff.deliver(claimed);
    } catch {
      // Stored and leased: once the lease runs out the dispatcher claims them from the store.
      return 0;
    }
    return claimed.length;
  }
}
