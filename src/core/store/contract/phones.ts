/** What the sandbox's virtual phones received, and what they sent through the sandbox API. */
import type { MessageContent, RcsContent } from './messages.js';

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

export type PhoneDirection = 'received' | 'sent';

export interface PhoneMessage {
  accountId: string;
  /** The virtual phone the entry belongs to. */
  number: string;
  channel: string;
  /** `sent`: the phone wrote it (through the sandbox API), to `to`. Received when absent. */
  direction?: PhoneDirection;
  from?: string;
  to?: string;
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
  /** Newest first: recorded entries and received SMS together; what the phone sent too with `includeSent`. */
  list(accountId: string, number: string, limit: number, options?: { includeSent?: boolean }): Promise<PhoneMessage[]>;
  /** The account's phones that received or sent anything, most recent activity first. */
  summaries(accountId: string, limit: number): Promise<PhoneSummary[]>;
}

export interface PhoneSummary {
  number: string;
  lastAt: number;
  received: number;
  sent: number;
  /** The newest entry: its text, or for a received message its content, to render a preview from. */
  last: { text?: string; content?: MessageContent };
}
