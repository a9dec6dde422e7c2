import type { Logger } from '../../logger.js';
import type { CarrierReceipt } from '../../network/carrier.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/types.js';
import type { MatchedUpdate, ReceiptMatcher } from './receipt-matcher.js';

export interface KeptReceiptRetryDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  matcher: ReceiptMatcher;
  /** How often kept receipts are matched again. */
  retryMs: number;
  /** How long a receipt is kept before it is dropped. */
  keepMs: number;
  /** Applies what the receipts that found their message now say, per carrier. */
  record(matched: Array<{ carrier: string; updates: MatchedUpdate[] }>): Promise<void>;
}

const PAGE = 500;

/**
 * Receipts that matched no submitted message when they came (the submit of their message not stored
 * yet, by another node say) are kept in the store; this matches them again. Each try takes the due
 * ones with a lease of one retry interval, so a node that dies while matching leaves them to the
 * next try of any node.
 */
export class KeptReceiptRetry {
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: KeptReceiptRetryDeps) {}

  /** At most once per retry interval of real time: matched receipts are applied and forgotten, those kept too long dropped. */
  async retry(): Promise<void> {
    const { store, clock, retryMs, keepMs, matcher } = this.deps;
    if (performance.now() - this.last < retryMs) return;
    this.last = performance.now();
    const now = clock.now();
    const kept = await store.keptReceipts.claimDue(now, PAGE, now + retryMs);
    if (kept.length === 0) return;
    const byCarrier = new Map<string, Array<{ id: number; keptAt: number; receipt: CarrierReceipt }>>();
    for (const { id, carrier, keptAt, carrierMessageId, status, errorId, final, at, mccMnc } of kept) {
      const receipt: CarrierReceipt = { carrierMessageId, status, errorId, final, at, ...(mccMnc === undefined ? {} : { mccMnc }) };
      const list = byCarrier.get(carrier);
      if (list) list.push({ id, keptAt, receipt });
      else byCarrier.set(carrier, [{ id, keptAt, receipt }]);
    }
    const matched: Array<{ carrier: string; updates: MatchedUpdate[] }> = [];
    const done: number[] = [];
    let dropped = 0;
    for (const [carrier, entries] of byCarrier) {
      const { updates, unmatched } = await matcher.match(carrier, entries.map((e) => e.receipt));
      matched.push({ carrier, updates });
      const still = new Set(unmatched);
      for (const entry of entries) {
        if (!still.has(entry.receipt)) done.push(entry.id);
        else if (now - entry.keptAt >= keepMs) {
          done.push(entry.id);
          dropped++;
        }
      }
    }
    await this.deps.record(matched);
    await store.keptReceipts.remove(done);
    if (dropped > 0) this.deps.log.info({ count: dropped }, 'receipts that matched no message were dropped');
  }
}
