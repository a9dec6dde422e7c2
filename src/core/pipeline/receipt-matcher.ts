import type { CarrierReceipt } from '../../network/carrier.js';
import type { StatusRef, Store, StoredMessage } from '../store/types.js';
import { finalFromParts, intermediatesFromParts } from './part-status.js';

/** A status a message is to take. */
export interface StatusUpdate {
  status: StatusRef;
  errorId: number;
  final: boolean;
  at: number;
  mccMnc?: string;
}

export interface MatchedUpdate {
  message: StoredMessage;
  update: StatusUpdate;
}

export interface ReceiptMatches {
  /** In receipt order; a message may appear more than once (an intermediate state, then its end). */
  updates: MatchedUpdate[];
  /** The receipts that named no submitted message and no part of one. */
  unmatched: CarrierReceipt[];
}

const LOOKUP_CHUNK = 1000;

/**
 * Finds what a carrier's receipts are about, from the store: a message known by the receipt's id
 * (a single-part message, or a network that gives a long message one id), else a part of a long
 * message (MessagePartStore), whose receipt is recorded on the part and whose message's status is
 * then derived from all of its parts (part-status.ts). Any node can match any receipt, after any
 * restart. Recently submitted messages are kept in memory so that their receipts skip a read; that
 * is only a cache.
 */
export class ReceiptMatcher {
  /** Recently submitted messages by carrier and carrier id; a receipt for one skips the store read. */
  private readonly remembered = new Map<string, StoredMessage>();

  constructor(
    private readonly store: Store,
    private readonly maxRemembered: number,
  ) {}

  remember(carrier: string, messages: StoredMessage[]): void {
    for (const message of messages) {
      if (message.carrierMessageId === undefined) continue;
      this.remembered.set(rememberKey(carrier, message.carrierMessageId), message);
    }
    if (this.remembered.size <= this.maxRemembered) return;
    let excess = this.remembered.size - this.maxRemembered;
    for (const key of this.remembered.keys()) {
      if (excess-- <= 0) break;
      this.remembered.delete(key);
    }
  }

  forget(carrier: string, message: StoredMessage): void {
    if (message.carrierMessageId !== undefined) this.remembered.delete(rememberKey(carrier, message.carrierMessageId));
  }

  async match(carrier: string, receipts: CarrierReceipt[]): Promise<ReceiptMatches> {
    const known = await this.findByCarrierIds(carrier, receipts);
    const updates: MatchedUpdate[] = [];
    const forParts: CarrierReceipt[] = [];
    for (const receipt of receipts) {
      const message = known.get(receipt.carrierMessageId);
      if (!message) {
        forParts.push(receipt);
        continue;
      }
      const update: StatusUpdate = { status: receipt.status, errorId: receipt.errorId, final: receipt.final, at: receipt.at };
      if (receipt.mccMnc !== undefined) update.mccMnc = receipt.mccMnc;
      updates.push({ message, update });
    }
    if (forParts.length === 0) return { updates, unmatched: [] };
    return this.matchParts(carrier, forParts, updates);
  }

  private async matchParts(carrier: string, receipts: CarrierReceipt[], updates: MatchedUpdate[]): Promise<ReceiptMatches> {
    const matches = await this.store.parts.recordReceipts(
      carrier,
      receipts.map((r) => ({ partId: r.carrierMessageId, status: r.status, errorId: r.errorId, final: r.final, at: r.at })),
    );
    const matched = new Set<string>();
    const mccMncs = new Map<string, string>();
    for (const receipt of receipts) if (receipt.mccMnc !== undefined) mccMncs.set(receipt.carrierMessageId, receipt.mccMnc);
    for (const { message, parts, changed } of matches) {
      let mccMnc: string | undefined;
      for (const part of parts) {
        matched.add(part.partId);
        mccMnc ??= mccMncs.get(part.partId);
      }
      for (const verdict of intermediatesFromParts(parts, changed)) updates.push({ message, update: { ...verdict, final: false } });
      // Derived again from the stored parts even when nothing changed: a receipt sent again because
      // the node that recorded the last part died before the message's own write still ends it.
      const final = finalFromParts(parts);
      if (final) updates.push({ message, update: { ...final, final: true, ...(mccMnc === undefined ? {} : { mccMnc }) } });
    }
    return { updates, unmatched: receipts.filter((r) => !matched.has(r.carrierMessageId)) };
  }

  private async findByCarrierIds(carrier: string, receipts: CarrierReceipt[]): Promise<Map<string, StoredMessage>> {
    const known = new Map<string, StoredMessage>();
    const missing = new Set<string>();
    for (const receipt of receipts) {
      const cached = this.remembered.get(rememberKey(carrier, receipt.carrierMessageId));
      if (cached) known.set(receipt.carrierMessageId, cached);
      else missing.add(receipt.carrierMessageId);
    }
    const ids = [...missing];
    for (let start = 0; start < ids.length; start += LOOKUP_CHUNK) {
      const found = await this.store.messages.findByCarrierIds(carrier, ids.slice(start, start + LOOKUP_CHUNK));
      for (const message of found) if (message.carrierMessageId) known.set(message.carrierMessageId, message);
    }
    return known;
  }
}

const rememberKey = (carrier: string, carrierMessageId: string): string => `${carrier}\u0000${carrierMessageId}`;
