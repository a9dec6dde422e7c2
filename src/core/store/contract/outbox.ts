/** The durable webhook outbox and its attempt log. */
import type { Subscription } from './subscriptions.js';

/** A webhook item to enqueue in the durable outbox, already rendered. */
export interface OutboxItemInput {
  accountId: string;
  url: string;
  /**
   * Which body wraps the items: `sms-dlr`, `rcs-dlr`, `rcs-seen` → {results}; `sms-mo`, `rcs-mo` →
   * {results, messageCount, pendingMessageCount}; `call-event` (and any other format) → the payload
   * itself, one per POST.
   */
  format: string;
  payload: unknown;
  /** Subscription security as configured (BASIC/HMAC), or undefined. */
  security?: WebhookSecurity;
  subscriptionId?: string;
  /**
   * An ordered stream of the account (e.g. a call id): its items are posted one at a time in enqueue
   * order, each only once the one before it is delivered or given up. Enqueues of one stream must
   * commit in the order they are made (the producer serialises them, as a call's row lock does).
   */
  stream?: string;
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
  /** The item's stream; a stream's item is a row of its own. */
  stream?: string;
  createdAt: number;
  /** When the next POST is due; a stream's item is due no earlier than the item before it. */
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
  /** The start of the receiver's answer (its first 4 KB), as text. */
  responseBody?: string;
  responseContentType?: string;
}

/** One webhook URL of an account: its items by state and its last attempt. */
export interface WebhookTargetSummary {
  url: string;
  pending: number;
  failed: number;
  delivered: number;
  /** Pending items that were already tried and failed at least once. */
  retrying: number;
  lastAttempt?: Pick<WebhookAttempt, 'startedAt' | 'outcome' | 'httpStatus' | 'error'>;
}

/** What `retryNow` did: the item as it is now, or why nothing was done. */
export type RetryOutcome = { kind: 'retried'; item: OutboxItem } | { kind: 'unknown' } | { kind: 'delivered'; item: OutboxItem };

export interface OutboxStore {
  enqueue(items: OutboxItemInput[]): Promise<void>;
  /**
   * Claims due pending items (dueAt <= now) for sending until `leaseUntil`; concurrent claimers never
   * get the same item. A stream's item is claimed only once every earlier item of its stream is
   * settled (delivered or failed), so at most one item of a stream is ever out.
   */
  claimDue(now: number, limit: number, leaseUntil: number, nodeId?: string): Promise<OutboxItem[]>;
  /**
   * Take-over: ends the leases these nodes hold on pending items, unless the node has beaten since
   * `silentBefore`, so that any sender claims them at once. Returns how many items were freed.
   */
  releaseLeases(nodeIds: string[], silentBefore: number): Promise<number>;
  /** The earliest time a pending item becomes claimable (its dueAt, or when its lease lapses); undefined: none. */
  nextDueAt(): Promise<number | undefined>;
  /**
   * Records one POST of a batch and its outcome for all its items. A retry of a stream's item moves
   * the later items of its stream to its new dueAt too: they cannot go before it.
   */
  recordAttempt(
    attempt: Omit<WebhookAttempt, 'id'>,
    next: { state: 'delivered' } | { state: 'pending'; dueAt: number } | { state: 'failed' },
  ): Promise<void>;
  listAttempts(accountId: string, limit: number, beforeId?: number): Promise<WebhookAttempt[]>;
  /** Newest first; only items posted to `url` when it is given. */
  listItems(accountId: string, state: OutboxItem['state'] | undefined, limit: number, url?: string): Promise<OutboxItem[]>;
  getItem(accountId: string, id: number): Promise<OutboxItem | undefined>;
  /** The attempts that carried any of these items (made at or after `since`, their creation), oldest first. */
  attemptsOfItems(accountId: string, itemIds: number[], since: number): Promise<WebhookAttempt[]>;
  /**
   * Items created within [since, until] whose payloads hold `"messageId":"<messageId>"` (the reports
   * and events pushed for a message), oldest first, at most `limit`.
   */
  itemsCarrying(accountId: string, messageId: string, window: { since: number; until: number }, limit: number): Promise<OutboxItem[]>;
  /**
   * Makes an item due at `now`: a failed one becomes pending again with its attempts kept (so it gets
   * one more POST), a pending one is moved forward along with the later items of its stream; a
   * lease of a POST in flight is left alone. A delivered item is not sent again.
   */
  retryNow(accountId: string, id: number, now: number): Promise<RetryOutcome>;
  /** Every URL of the account's items, unordered. */
  targets(accountId: string): Promise<WebhookTargetSummary[]>;
  /** Payloads (reports, messages) per item state. */
  countByState(): Promise<Record<OutboxItem['state'], number>>;
}
