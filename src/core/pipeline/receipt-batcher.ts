import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../logger.js';
import type { CarrierReceipt } from '../../network/carrier.js';
import { yieldToEventLoop } from '../yield.js';

/** Receipts of one write, by carrier name, each list in arrival order. */
export type ReceiptBatch = Map<string, CarrierReceipt[]>;

interface Waiting {
  carrier: string;
  receipts: CarrierReceipt[];
  done: (stored: boolean) => void;
}

/**
 * Group commit for receipts: everything that arrives while one write runs (or within the current
 * turn of the event loop) goes into the next write, so one transaction carries thousands of
 * receipts under load and a single one when idle. Only one write runs at a time.
 */
export class ReceiptBatcher {
  private queue: Waiting[] = [];
  private running: Promise<void> | undefined;
  /** Receipts queued or being written. */
  private pending = 0;
  private capacityWaiters: Array<{ below: number; wake: () => void }> = [];

  constructor(
    private readonly deps: {
      write: (batch: ReceiptBatch) => Promise<void>;
      log: Logger;
      maxBatch: number;
      retryDelaysMs: number[];
    },
  ) {}

  /** Resolves true once the receipts are written, false when the write was given up after its retries. */
  add(carrier: string, receipts: CarrierReceipt[]): Promise<boolean> {
    if (receipts.length === 0) return Promise.resolve(true);
    this.pending += receipts.length;
    return new Promise((resolve) => {
      this.queue.push({ carrier, receipts, done: resolve });
      this.kick();
    });
  }

  /** Resolves once fewer than `below` receipts wait to be written (producers use it as backpressure). */
  whenBelow(below: number): Promise<void> {
    if (this.pending < below) return Promise.resolve();
    return new Promise((wake) => this.capacityWaiters.push({ below, wake }));
  }

  /** Resolves when the queue is empty and no write runs. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private kick(): void {
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    await yieldToEventLoop();
    while (this.queue.length > 0) {
      const taken = this.take();
      const batch: ReceiptBatch = new Map();
      for (const entry of taken) {
        const list = batch.get(entry.carrier);
        if (list) list.push(...entry.receipts);
        else batch.set(entry.carrier, [...entry.receipts]);
      }
      const count = taken.reduce((n, entry) => n + entry.receipts.length, 0);
      const stored = await this.writeWithRetry(batch, count);
      for (const entry of taken) entry.done(stored);
      this.pending -= count;
      this.wakeProducers();
      await yieldToEventLoop();
    }
  }

  private wakeProducers(): void {
    if (this.capacityWaiters.length === 0) return;
    const still: typeof this.capacityWaiters = [];
    for (const waiter of this.capacityWaiters) {
      if (this.pending < waiter.below) waiter.wake();
      else still.push(waiter);
    }
    this.capacityWaiters = still;
  }

  private take(): Waiting[] {
    let count = 0;
    let end = 0;
    while (end < this.queue.length && (end === 0 || count + this.queue[end]!.receipts.length <= this.deps.maxBatch)) {
      count += this.queue[end]!.receipts.length;
      end++;
    }
    return this.queue.splice(0, end);
  }

  private async writeWithRetry(batch: ReceiptBatch, count: number): Promise<boolean> {
    const delays = this.deps.retryDelaysMs;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.deps.write(batch);
        return true;
      } catch (error) {
        if (attempt >= delays.length) {
          // The sandbox schedules them again on restart; an SMSC delivers again what was not acknowledged.
          this.deps.log.error({ err: error, receipts: count }, 'recording receipts failed; giving up on this batch');
          return false;
        }
        this.deps.log.warn({ err: error, receipts: count, attempt: attempt + 1 }, 'recording receipts failed; retrying');
        await sleep(delays[attempt]!, undefined, { ref: false });
      }
    }
  }
}
