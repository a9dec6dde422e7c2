import type { Logger } from '../../logger.js';
import type { Clock, Timer } from '../clock.js';
import type { Store, SubmitResult } from '../store/types.js';

/** Most submits written in one markSubmitted. */
const WRITE_CHUNK = 500;

interface Waiting {
  result: SubmitResult;
  /** On the clock: when the submit was handed here. */
  since: number;
  /** A final status carrying this submit is being written; the submit is written with it. */
  riding: boolean;
}

export interface SubmitWriteBehindDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** How long a submit waits for its final receipt before it is written on its own. */
  delayMs: number;
  nodeId?: string;
}

/**
 * Submits whose write waits a moment for their final receipt, so that a message whose receipt comes
 * within `delayMs` is written once (final, with its carrier id) instead of twice (submitted, then
 * final). On PostgreSQL each write of a message adds a row version and, a status change never
 * being a HOT update, an entry in each of its indexes: the submit's own write was about a fifth of
 * the database's CPU on the live path.
 *
 * Until it is written, the submit is known only here; the message stays `dispatching` under its
 * claim's lease (ten times `delayMs` and more). What that costs:
 * - a receipt for it that reaches another node matches nothing there and is kept, and matched by
 *   that node's retry (every second) once the submit is written here;
 * - if this node dies first, its claims go back to the queue when it is taken over and the message
 *   is submitted again, as one whose submit was not yet answered would be (the window of an SMSC
 *   connection is of the same size: hundreds of messages).
 * Long messages are not held: their parts are stored with the submit (markSubmitted).
 */
export class SubmitWriteBehind {
  /** By message pk, in the order handed here (so oldest first). */
  private readonly waiting = new Map<number, Waiting>();
  private timer: Timer | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SubmitWriteBehindDeps) {}

  hold(results: readonly SubmitResult[]): void {
    const since = this.deps.clock.now();
    for (const result of results) {
      // Kept in the order handed here: a message submitted again goes to the end.
      this.waiting.delete(result.pk);
      this.waiting.set(result.pk, { result, since, riding: false });
    }
    this.arm(0);
  }

  /**
   * The submit of a message whose final status is about to be written, if it is still held here;
   * it is then left out of the writes of held submits until `written` or `notWritten` is called.
   */
  ride(pk: number): SubmitResult | undefined {
    const waiting = this.waiting.get(pk);
    if (!waiting || waiting.riding) return undefined;
    waiting.riding = true;
    return waiting.result;
  }

  /** The final statuses that carried these submits are stored. */
  written(pks: readonly number[]): void {
    for (const pk of pks) this.waiting.delete(pk);
  }

  /** Their write failed: the submits are written on their own, as if they had never ridden. */
  notWritten(pks: readonly number[]): void {
    for (const pk of pks) {
      const waiting = this.waiting.get(pk);
      if (waiting) waiting.riding = false;
    }
    this.arm(0);
  }

  /**
   * Runs `work` (a status round of receipts, or a write of held submits) after those queued before
   * it, never beside one: the two could update the same rows, and on PostgreSQL, in opposite orders,
   * deadlock.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writing.then(work);
    this.writing = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Writes every held submit not riding with a final status (at stop); false if some could not be. */
  writeAll(): Promise<boolean> {
    this.timer?.cancel();
    this.timer = undefined;
    return this.write(Number.POSITIVE_INFINITY);
  }

  /** Sets the timer for the oldest held submit, no sooner than `atLeastMs` from now. */
  private arm(atLeastMs: number): void {
    if (this.timer) return;
    const oldest = this.oldestNotRiding();
    if (oldest === undefined) return;
    const wait = Math.max(atLeastMs, oldest.since + this.deps.delayMs - this.deps.clock.now());
    this.timer = this.deps.clock.setTimer(wait, () => {
      this.timer = undefined;
      // After a failed write, the next try waits a whole delay.
      void this.write(this.deps.clock.now() - this.deps.delayMs).then((ok) => this.arm(ok ? 0 : this.deps.delayMs));
    });
  }

  private oldestNotRiding(): Waiting | undefined {
    for (const waiting of this.waiting.values()) if (!waiting.riding) return waiting;
    return undefined;
  }

  /** Writes the held submits handed here at or before `heldSince`; false when a write failed (they stay held). */
  private write(heldSince: number): Promise<boolean> {
    return this.exclusive(async () => {
      const due: Waiting[] = [];
      for (const waiting of this.waiting.values()) {
        if (waiting.since > heldSince) break;
        if (!waiting.riding) due.push(waiting);
      }
      for (let start = 0; start < due.length; start += WRITE_CHUNK) {
        const chunk = due.slice(start, start + WRITE_CHUNK);
        try {
          await this.deps.store.messages.markSubmitted(
            chunk.map((w) => w.result),
            this.deps.nodeId,
          );
        } catch (error) {
          // Still held, still under their lease: the next write tries again.
          this.deps.log.warn({ err: error, count: chunk.length }, 'could not store submits; trying again');
          return false;
        }
        for (const waiting of chunk) if (!waiting.riding) this.waiting.delete(waiting.result.pk);
      }
      return true;
    });
  }
}
