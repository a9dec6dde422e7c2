/**
 * The store contract: one Store, with a contract file per area under contract/. Every driver
 * (SQLite, PostgreSQL) implements exactly this; nothing above the store knows SQL. Times are epoch
 * milliseconds. Every method that reads or changes account data takes the account id, so no query
 * can cross accounts.
 */

import type { AccountStore, ApiKeyStore } from './contract/accounts.js';
import type { AudioStore, CallsConfigurationStore, CallStore, NodeStore } from './contract/calls.js';
import type { InboundStore } from './contract/inbound.js';
import type { MessageStore } from './contract/messages.js';
import type { OutboxStore } from './contract/outbox.js';
import type { KeptReceiptStore, MessagePartStore } from './contract/parts.js';
import type { PhoneStore } from './contract/phones.js';
import type { ReportStore } from './contract/reports.js';
import type { SubscriptionStore } from './contract/subscriptions.js';
import type { PinStore, RateWindowStore, SecretStore, TwoFactorApplicationStore, TwoFactorTemplateStore } from './contract/verify.js';

export type * from './contract/accounts.js';
export type * from './contract/calls.js';
export type * from './contract/inbound.js';
export type * from './contract/messages.js';
export type * from './contract/outbox.js';
export type * from './contract/parts.js';
export type * from './contract/phones.js';
export type * from './contract/reports.js';
export type * from './contract/subscriptions.js';
export type * from './contract/verify.js';

export interface Store {
  readonly driver: 'sqlite' | 'postgres';
  /** Applies pending versioned migrations; returns the versions applied. */
  migrate(): Promise<string[]>;
  /**
   * Resolves once every commit made so far through this store is on disk. Writes that a network
   * acknowledges (receipts, inbound messages) call it before the acknowledgement goes out; it
   * costs nothing where each commit already waits for the disk.
   */
  flushToDisk(): Promise<void>;
  close(): Promise<void>;
  /** Signals between the nodes sharing the database; absent where a process is the only node (SQLite). */
  signals?: StoreSignals;
  accounts: AccountStore;
  keys: ApiKeyStore;
  messages: MessageStore;
  /** The parts of long messages and their receipts. */
  parts: MessagePartStore;
  /** Receipts that came before their message's submit was stored (another node's, say). */
  keptReceipts: KeptReceiptStore;
  reports: ReportStore;
  inbound: InboundStore;
  outbox: OutboxStore;
  subscriptions: SubscriptionStore;
  phones: PhoneStore;
  callsConfigurations: CallsConfigurationStore;
  calls: CallStore;
  audio: AudioStore;
  nodes: NodeStore;
  twoFactorApplications: TwoFactorApplicationStore;
  twoFactorTemplates: TwoFactorTemplateStore;
  pins: PinStore;
  rateWindows: RateWindowStore;
  secrets: SecretStore;
}

/**
 * Short messages to every node of the deployment (PostgreSQL LISTEN/NOTIFY, scoped to the store's
 * schema): delivered to those listening at the time, at most once, never stored. A payload is at
 * most 8000 bytes.
 */
export interface StoreSignals {
  /** Calls `onSignal` with each payload sent on `channel`, this node's own included; resolves with the way to stop. */
  listen(channel: string, onSignal: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
}
