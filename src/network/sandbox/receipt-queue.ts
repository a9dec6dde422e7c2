import type { CarrierReceipt } from '../carrier.js';

/**
 * Receipts waiting for their time (`receipt.at`), as a binary min-heap so a large backlog with
 * mixed latencies costs O(log n) per receipt. Ties leave in insertion order, so an intermediate
 * receipt always precedes the final one scheduled for the same instant.
 */
export class ReceiptQueue {
  private heap: Array<{ receipt: CarrierReceipt; seq: number }> = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  /** When the earliest receipt is due; undefined when none waits. */
  get nextAt(): number | undefined {
    return this.heap[0]?.receipt.at;
  }

  push(receipt: CarrierReceipt): void {
    this.heap.push({ receipt, seq: this.seq++ });
    this.up(this.heap.length - 1);
  }

  /** Removes and returns, in time order, every receipt due at or before `now`. */
  takeDue(now: number): CarrierReceipt[] {
    const due: CarrierReceipt[] = [];
    while (this.heap.length > 0 && this.heap[0]!.receipt.at <= now) {
      const top = this.heap[0]!;
      const last = this.heap.pop()!;
      if (this.heap.length > 0) {
        this.heap[0] = last;
        this.down(0);
      }
      due.push(top.receipt);
    }
    return due;
  }

  clear(): void {
    this.heap = [];
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    return x.receipt.at < y.receipt.at || (x.receipt.at === y.receipt.at && x.seq < y.seq);
  }

  private swap(a: number, b: number): void {
    const tmp = this.heap[a]!;
    this.heap[a] = this.heap[b]!;
    this.heap[b] = tmp;
  }

  private up(index: number): void {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(index, parent)) return;
      this.swap(index, parent);
      index = parent;
    }
  }

  private down(index: number): void {
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < this.heap.length && this.before(left, smallest)) smallest = left;
      if (right < this.heap.length && this.before(right, smallest)) smallest = right;
      if (smallest === index) return;
      this.swap(index, smallest);
      index = smallest;
    }
  }
}
