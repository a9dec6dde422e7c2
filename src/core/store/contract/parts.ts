/**
 * The parts of long messages as a network submitted them (SMPP gives each part its own id and its
 * own receipt), and receipts that matched no message yet.
 */
import type { StatusRef } from './messages.js';

/** What the network last reported of one part. */
export interface PartReceiptState {
  status: StatusRef;
  errorId: number;
  final: boolean;
  at: number;
}

/** One submitted part of a long message: a row exists once the network accepted the part. */
export interface MessagePart {
  /** 1 for the first part, in the order the parts make the text. */
  number: number;
  /** The network's id for the part (canonical form). */
  partId: string;
  /** When the message's submit was recorded (every part of it was accepted). */
  submittedAt: number;
  /** Absent until the first receipt for the part. */
  receipt?: PartReceiptState;
}

export interface PartReceipt extends PartReceiptState {
  partId: string;
}

/** A message some of whose parts the receipts of one call named, after they were recorded. */
export interface PartReceiptMatch {
  messagePk: number;
  /** Every part of the message, in order, as stored once the call's receipts are recorded. */
  parts: MessagePart[];
  /**
   * The call's receipts that changed a part of it, in order: not a repeat of what the part already
   * had, and not after the part's final receipt (the first final receipt of a part is kept for good).
   */
  changed: PartReceipt[];
}

export interface MessagePartStore {
  /**
   * Records receipts for parts of long messages submitted to `carrier` (durably), then reads every
   * part of the messages concerned: after the write has committed (PostgreSQL) or in the same
   * transaction (SQLite, whose writes are serial), so of concurrent calls on several nodes, at least
   * one sees a message's last part with all the others. Returns one match per message having any of the named parts (whatever its state),
   * in message order; receipts naming no known part are left out. The message's carrier id is its
   * parts' ids joined by spaces (MessageStore.findByCarrierIds finds it while it is submitted).
   */
  recordReceipts(carrier: string, receipts: PartReceipt[]): Promise<PartReceiptMatch[]>;
  /** The parts of these messages by message pk (messages without part rows are left out). */
  list(pks: number[]): Promise<Map<number, MessagePart[]>>;
}

/** A delivery receipt or intermediate state as the network reported it (a carrier's CarrierReceipt). */
export interface ReceiptReport {
  carrierMessageId: string;
  status: StatusRef;
  errorId: number;
  final: boolean;
  at: number;
  mccMnc?: string;
}

/** A receipt that matched no submitted message, kept until its message is known or it is given up. */
export interface KeptReceipt extends ReceiptReport {
  id: number;
  carrier: string;
  keptAt: number;
}

export type KeptReceiptInput = ReceiptReport;

export interface KeptReceiptStore {
  /** Keeps receipts that matched nothing; they are due for another match at `nextTryAt`. */
  keep(carrier: string, receipts: KeptReceiptInput[], keptAt: number, nextTryAt: number): Promise<void>;
  /**
   * Takes up to `limit` kept receipts due at `now`, oldest first, and makes them due again at
   * `nextTryAt`: a node that dies while matching them leaves them to the next try of any node.
   */
  claimDue(now: number, limit: number, nextTryAt: number): Promise<KeptReceipt[]>;
  /** Forgets kept receipts (matched, or given up). */
  remove(ids: number[]): Promise<void>;
  /** When the earliest kept receipt is due for another match (undefined: none is kept). */
  nextTryAt(): Promise<number | undefined>;
}
