/** The durable webhook outbox and its attempt log. */
import type { Subscription } from './subscriptions.js';

/** A webhook item to enqueue in the durable outbox, already rendered. */
export interface OutboxItemInput {
  accountId: string;
  url: string;
  /** Which body wraps the items: `sms-dlr` → {results}, `sms-mo` → {results, messageCount, pendingMessageCount}. */
  format: string;
  payload: unknown;
  /** Subscription security as configured (BASIC/HMAC), or undefined. */
  security?: WebhookSecurity;
  subscriptionId?: string;
  createdAt: number;
  dueAt: number;
}

export interface WebhookSecurity {
  type: 'BASIC' | 'HMAC';
  username?: string;
  password?: string;
  secret?: string;
  algorithm?: string;
}

/**
 * One outbox row: the payloads of up to one POST for one target (account, URL, format, security,
 * subscription), kept as the JSON array text that is posted, so sending neither parses nor
 * re-serializes them. Its items are retried and settled together.
 */
export interface OutboxItem {
  id: number;
  accountId: string;
  url: string;
  format: string;
  /** JSON array text of the payloads, in the order they were enqueued. */
  payloads: string;
  payloadCount: number;
  security?: WebhookSecurity;
  subscriptionId?: string;
  createdAt: number;
  dueAt: number;
  attempts: number;
  state: 'pending' | 'delivered' | 'failed';
  lastError?: string;
}

export interface WebhookAttempt {
  id: number;
  accountId: string;
  url: string;
  itemIds: number[];
  /** Reports or messages the POST carried (the items hold one or more each). */
  payloadCount: number;
  attemptNo: number;
  startedAt: number;
  durationMs: number;
  httpStatus?: number;
  error?: string;
  outcome: 'delivered' | 'retry' | 'failed';
}

export interface OutboxStore {
  enqueue(items: OutboxItemInput[]): Promise<void>;
  /** Claims due pending items (dueAt <= now) for sending until `leaseUntil`; concurrent claimers never get the same item. */
  claimDue(now: number, limit: number, leaseUntil: number): Promise<OutboxItem[]>;
  /** Records one POST of a batch and its outcome for all its items. */
  recordAttempt(
    attempt: Omit<WebhookAttempt, 'id'>,
    next: { state: 'delivered' } | { state: 'pending'; dueAt: number } | { state: 'failed' },
  ): Promise<void>;
  listAttempts(accountId: string, limit: number, beforeId?: number): Promise<WebhookAttempt[]>;
  listItems(accountId: string, state: OutboxItem['state'] | undefined, limit: number): Promise<OutboxItem[]>;
  /** Payloads (reports, messages) per item state. */
  countByState(): Promise<Record<OutboxItem['state'], number>>;
}
