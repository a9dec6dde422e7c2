import type { CarrierReceipt } from '../../network/carrier.js';
import type { StatusRef, Store, StoredMessage } from '../store/types.js';
import { finalFromParts, intermediatesFromParts } from './part-status.js';
import { withFields } from '../with-fields.js';

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
  /**
   * Recently submitted messages by carrier and carrier id, and a long message by each of its parts'
   * ids too: a receipt for one skips the store's lookups (a part's receipt is still recorded there).
   */
  private readonly remembered = new Map<string, { message: StoredMessage; part: boolean }>();

  constructor(
    private readonly store: Store,
    private readonly maxRemembered: number,
  ) {}

  /** Messages just submitted, with `carrierMessageId` set; a long message's is its parts' ids joined by spaces. */
  remember(carrier: string, messages: StoredMessage[]): void {
    for (const message of messages) {
      const id = message.carrierMessageId;
      if (id === undefined) continue;
      const partIds = id.split(' ');
      if (partIds.length === 1) this.remembered.set(rememberKey(carrier, id), { message, part: false });
      else for (const partId of partIds) this.remembered.set(rememberKey(carrier, partId), { message, part: true });
    }
    if (this.remembered.size <= this.maxRemembered) return;
    let excess = this.remembered.size - this.maxRemembered;
    for (const key of this.remembered.keys()) {
      if (excess-- <= 0) break;
      this.remembered.delete(key);
    }
  }

  forget(carrier: string, message: StoredMessage): void {
    for (const id of message.carrierMessageId?.split(' ') ?? []) this.remembered.delete(rememberKey(carrier, id));
  }

  async match(carrier: string, receipts: CarrierReceipt[]): Promise<ReceiptMatches> {
    const updates: MatchedUpdate[] = [];
    const forParts: CarrierReceipt[] = [];
    const unknown: CarrierReceipt[] = [];
    for (const receipt of receipts) {
      const cached = this.remembered.get(rememberKey(carrier, receipt.carrierMessageId));
      if (!cached) unknown.push(receipt);
      else if (cached.part) forParts.push(receipt);
      else updates.push({ message: cached.message, update: updateOf(receipt) });
    }
    if (unknown.length > 0) {
      const known = await this.findByCarrierIds(carrier, unknown.map((r) => r.carrierMessageId));
      for (const receipt of unknown) {
        const message = known.get(receipt.carrierMessageId);
        if (message) updates.push({ message, update: updateOf(receipt) });
        else forParts.push(receipt);
      }
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
    const derived: Array<{ carrierMessageId: string; update: StatusUpdate }> = [];
    for (const { parts, changed } of matches) {
      let mccMnc: string | undefined;
      for (const part of parts) {
        matched.add(part.partId);
        mccMnc ??= mccMncs.get(part.partId);
      }
      const carrierMessageId = parts.map((part) => part.partId).join(' ');
      for (const verdict of intermediatesFromParts(parts, changed)) derived.push({ carrierMessageId, update: withFields(verdict, { final: false }) });
      // Derived again from the stored parts even when nothing changed: a receipt sent again because
      // the node that recorded the last part died before the message's own write still ends it.
      const final = finalFromParts(parts);
      if (final) derived.push({ carrierMessageId, update: withFields(final, mccMnc === undefined ? { final: true } : { final: true, mccMnc }) });
    }
    if (derived.length > 0) {
      // Most receipts of a long message change only its part: its message is read for the others.
      const messages = await this.messagesOfParts(carrier, derived.map((d) => d.carrierMessageId));
      for (const { carrierMessageId, update } of derived) {
        const message = messages.get(carrierMessageId);
        if (message) updates.push({ message, update });
      }
    }
    return { updates, unmatched: receipts.filter((r) => !matched.has(r.carrierMessageId)) };
  }

  /** Long messages by carrier id, from the cache (by any part's id) or the store while submitted. */
  private async messagesOfParts(carrier: string, carrierMessageIds: string[]): Promise<Map<string, StoredMessage>> {
    const found = new Map<string, StoredMessage>();
    const missing: string[] = [];
    for (const id of new Set(carrierMessageIds)) {
      const cached = this.remembered.get(rememberKey(carrier, id.split(' ')[0]!));
      if (cached?.message.carrierMessageId === id) found.set(id, cached.message);
      else missing.push(id);
    }
    if (missing.length > 0) for (const [id, message] of await this.findByCarrierIds(carrier, missing)) found.set(id, message);
    return found;
  }

  private async findByCarrierIds(carrier: string, carrierMessageIds: string[]): Promise<Map<string, StoredMessage>> {
    const known = new Map<string, StoredMessage>();
    const ids = [...new Set(carrierMessageIds)];
    for (let start = 0; start < ids.length; start += LOOKUP_CHUNK) {
      const found = await this.store.messages.findByCarrierIds(carrier, ids.slice(start, start + LOOKUP_CHUNK));
      for (const message of found) if (message.carrierMessageId) known.set(message.carrierMessageId, message);
    }
    return known;
  }
}

function updateOf(receipt: CarrierReceipt): StatusUpdate {
  const update: StatusUpdate = { status: receipt.status, errorId: receipt.errorId, final: receipt.final, at: receipt.at };
  if (receipt.mccMnc !== undefined) update.mccMnc = receipt.mccMnc;
  return update;
}

const rememberKey = (carrier: string, carrierMessageId: string): string => `${carrier}\u0000${carrierMessageId}`;
