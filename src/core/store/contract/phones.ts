/** What the sandbox's virtual phones received. */
import type { RcsContent } from './messages.js';

/** A virtual phone (sandbox) received an SMS: the phone lists the message itself from `at` on. */
export interface PhoneReceipt {
  /** The destination as the phone is addressed (normalizeNumber). */
  number: string;
  at: number;
}

/** An SMS of the account's, stored as `pk`, that a virtual phone received. */
export interface ReceivedSms extends PhoneReceipt {
  accountId: string;
  pk: number;
}

export interface PhoneMessage {
  accountId: string;
  number: string;
  channel: string;
  from?: string;
  text?: string;
  messageId?: string;
  receivedAt: number;
  /** RCS: the content received, as sent. */
  content?: RcsContent;
  /** Details of other channels (what a call said). */
  payload?: Record<string, unknown>;
}

export interface PhoneStore {
  /** Entries of other channels than SMS, kept as given. */
  record(message: PhoneMessage): Promise<void>;
  recordMany(messages: PhoneMessage[]): Promise<void>;
  /** SMS messages the phone received: marked on the messages, which the phone then lists. */
  recordSms(received: ReceivedSms[]): Promise<void>;
  /** Newest first: recorded entries and received SMS together. */
  list(accountId: string, number: string, limit: number): Promise<PhoneMessage[]>;
}
