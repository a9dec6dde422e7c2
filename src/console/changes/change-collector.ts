import { PendingChanges, type ChangeBatch } from './change-set.js';

export interface ChangeCollectorOptions {
  /** Nobody listens while this is inactive: publishers skip their work. Always active when absent. */
  flag?: { readonly active: boolean };
  /** Changes gather this long before they go out together. */
  delayMs: number;
  sink: (batch: ChangeBatch) => void;
}

/**
 * Gathers the changes of a thread and hands them on together, at most once per `delayMs`: what
 * the store decorator (publishing-store.ts) reports, or what another thread or node sent.
 */
export class ChangeCollector {
  private pending = new Map<string, PendingChanges>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ChangeCollectorOptions) {}

  get active(): boolean {
    return this.options.flag?.active ?? true;
  }

  /** The changes of one account, to add to; the batch goes out `delayMs` after its first change. */
  of(accountId: string): PendingChanges {
    let changes = this.pending.get(accountId);
    if (!changes) {
      changes = new PendingChanges();
      this.pending.set(accountId, changes);
      this.timer ??= setTimeout(() => this.flush(), this.options.delayMs).unref();
    }
    return changes;
  }

  merge(batch: ChangeBatch): void {
    for (const [accountId, changes] of batch) this.of(accountId).merge(changes);
  }

  /** Hands on what was gathered now (also what stopping does). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const batch: ChangeBatch = [...this.pending].map(([accountId, changes]) => [accountId, changes.toWire()]);
    this.pending = new Map();
    this.options.sink(batch);
  }
}
