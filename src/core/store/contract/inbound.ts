/** Inbound (mobile-originated) messages. */
import type { OutboxItemInput } from './outbox.js';

export interface InboundMessage {
  accountId: string;
  messageId: string;
  from: string;
  to: string;
  text: string;
  cleanText: string;
  keyword?: string;
  receivedAt: number;
  smsCount: number;
  callbackData?: string;
  applicationId?: string;
  entityId?: string;
  campaignReferenceId?: string;
}

export interface InboundFilter {
  accountId: string;
  since: number;
  applicationId?: string;
  entityId?: string;
  campaignReferenceId?: string;
  limit: number;
}

/** One part of a concatenated inbound message, as it arrives. */
export interface InboundPartInput {
  accountId: string;
  /** Names the message the part belongs to (its sender, recipient, reference and part count). */
  setKey: string;
  from: string;
  to: string;
  total: number;
  /** 1 to total. */
  seq: number;
  text: string;
  receivedAt: number;
}

/** The parts of one concatenated inbound message that have arrived. */
export interface InboundPartSet {
  accountId: string;
  setKey: string;
  from: string;
  to: string;
  total: number;
  /** By sequence number, in order. */
  parts: Array<{ seq: number; text: string; receivedAt: number }>;
}

/**
 * What adding a part did: kept (others are missing), completed its set (every part is stored; the
 * message is to be stored with `completes`), or nothing, the part being a repeat of one of a set
 * already done.
 */
export type InboundPartOutcome = { kind: 'kept' } | { kind: 'repeat' } | { kind: 'complete'; set: InboundPartSet };

export interface InboundStore {
  /**
   * Stores an inbound message (pullable once unless `pullable` is false) with its webhook items,
   * atomically. With `completes`, the message is the one that part set makes: the set is marked
   * done in the same transaction, and nothing is stored (false) when it already was, so a message
   * is stored once however many nodes complete its set.
   */
  insert(
    message: InboundMessage,
    options: { pullable: boolean; webhooks?: OutboxItemInput[]; completes?: { accountId: string; setKey: string; at: number } },
  ): Promise<boolean>;
  /**
   * Stores one part of a concatenated message (durably), under a lock of its set so that exactly one
   * of several nodes adding parts at once sees the set complete. A part sent again replaces the copy
   * stored. A part for a set already done is a repeat when it is the same as the part stored there;
   * otherwise it starts the set again (a new message that reuses the reference).
   */
  addPart(part: InboundPartInput): Promise<InboundPartOutcome>;
  /** Sets not done whose first part came at or before `firstBy`, oldest first. */
  listStaleSets(firstBy: number, limit: number): Promise<InboundPartSet[]>;
  /** Removes sets done before `before` with their parts. Returns the sets removed. */
  purgeDoneSets(before: number): Promise<number>;
  /** Returns and consumes the oldest pending inbound messages, and how many remain pending. */
  consume(filter: InboundFilter): Promise<{ messages: InboundMessage[]; pending: number }>;
}
