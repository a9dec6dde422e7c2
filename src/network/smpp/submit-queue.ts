/** Why a submit ended: the SMSC's answer, or the reason there is none. */
export type SubmitAnswer =
  | { kind: 'answered'; status: number; messageId: string }
  /** Still throttled (ESME_RTHROTTLED / ESME_RMSGQFUL) when the deadline came. */
  | { kind: 'throttled' }
  /** Never sent: no bound connection before the deadline, or the connection was stopped. */
  | { kind: 'unsent' }
  /** Sent, but the connection dropped before an answer and there was no time to send it again. */
  | { kind: 'lost' };

/** Why a submit that reached its deadline got no answer. */
export function expiredAnswer(entry: QueuedSubmit): SubmitAnswer {
  return { kind: entry.throttled ? 'throttled' : entry.sent ? 'lost' : 'unsent' };
}

export interface QueuedSubmit {
  fields: Record<string, unknown>;
  /** The connection's Clock time after which the submit is given up. */
  deadline: number;
  /** True once it has been written to a connection at least once. */
  sent: boolean;
  /** True when its last answer was ESME_RTHROTTLED / ESME_RMSGQFUL. */
  throttled?: boolean;
  resolve(answer: SubmitAnswer): void;
}

/**
 * Submits waiting for a connection's window. A FIFO that also takes entries back at its head
 * (throttled, or unanswered when a connection dropped), so resent PDUs keep their place.
 */
export class SubmitQueue {
  private items: QueuedSubmit[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(entry: QueuedSubmit): void {
    this.items.push(entry);
  }

  shift(): QueuedSubmit | undefined {
    if (this.head >= this.items.length) return undefined;
    const entry = this.items[this.head++];
    // Compacting now and then keeps shift O(1) without an ever-growing array.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return entry;
  }

  unshift(entry: QueuedSubmit): void {
    if (this.head > 0) this.items[--this.head] = entry;
    else this.items.unshift(entry);
  }

  unshiftAll(entries: QueuedSubmit[]): void {
    if (entries.length === 0) return;
    this.items = [...entries, ...this.items.slice(this.head)];
    this.head = 0;
  }

  /** Resolves and drops the entries whose deadline has passed. */
  expire(now: number): void {
    if (this.size === 0) return;
    const kept: QueuedSubmit[] = [];
    for (let i = this.head; i < this.items.length; i++) {
      const entry = this.items[i]!;
      if (now >= entry.deadline) entry.resolve(expiredAnswer(entry));
      else kept.push(entry);
    }
    this.items = kept;
    this.head = 0;
  }

  failAll(answer: SubmitAnswer): void {
    for (let i = this.head; i < this.items.length; i++) this.items[i]!.resolve(answer);
    this.items = [];
    this.head = 0;
  }
}
