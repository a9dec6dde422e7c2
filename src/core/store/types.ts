/**
 * The store contract. Every driver (SQLite, PostgreSQL) implements exactly this; nothing above the
 * store knows SQL. Times are epoch milliseconds. Every method that reads or changes account data
 * takes the account id, so no query can cross accounts.
 */

export type ApiFamily = 'sms3' | 'sms2';

/** (groupId, id) identifies a status; names and descriptions come from core/pipeline/statuses. */
export interface StatusRef {
  groupId: number;
  id: number;
}

export interface Account {
  id: string;
  name: string;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  /** First characters of the key, safe to show and used to find the row. */
  lookup: string;
  /** SHA-256 of the whole key, hex. */
  hash: string;
  createdAt: number;
  revokedAt?: number;
}

export interface TextContent {
  text: string;
  transliteration?: string;
  language?: { languageCode?: string; singleShift?: boolean; lockingShift?: boolean };
}

export interface BinaryContent {
  hex: string;
  dataCoding?: number;
  esmClass?: number;
}

export type MessageContent = TextContent | BinaryContent;

export interface DeliveryWindow {
  days: string[];
  from?: { hour: number; minute: number };
  to?: { hour: number; minute: number };
}

export interface MessageWebhook {
  url?: string;
  intermediateReport: boolean;
  /** false = never push a report for this message. */
  notify: boolean;
  contentType?: string;
}

/** Pipeline position of a message. `final` messages never change again. */
export type MessageState = 'queued' | 'dispatching' | 'submitted' | 'final';

export interface NewMessage {
  accountId: string;
  messageId: string;
  bulkId: string;
  api: ApiFamily;
  sender?: string;
  destination: string;
  content: MessageContent;
  encoding: 'GSM7' | 'UCS2' | 'BINARY';
  messageCount: number;
  callbackData?: string;
  entityId?: string;
  applicationId?: string;
  campaignReferenceId?: string;
  webhook: MessageWebhook;
  /** Request fields stored as given that the pipeline does not act on (tracking, regional, flash…). */
  extras?: Record<string, unknown>;
  deliveryWindow?: DeliveryWindow;
  /** Acceptance time. */
  createdAt: number;
  /** Earliest dispatch time (scheduling, speed limit and delivery window already applied). */
  dueAt: number;
  /** After this instant the message expires instead of being sent or awaiting a receipt. */
  validUntil: number;
  /**
   * `queued` normally; `final` when rejected at acceptance (status tells why); `dispatching` when
   * stored already claimed by this node's dispatcher until `leaseUntil` (handed over in memory).
   */
  state: 'queued' | 'dispatching' | 'final';
  /** With `dispatching`: the lease, as a claim would set it (the insert counts it as attempt 1). */
  leaseUntil?: number;
  status: StatusRef;
  errorId: number;
}

export interface StoredMessage extends Omit<NewMessage, 'state'> {
  /** Internal sequence number; cursors and claims use it. */
  pk: number;
  state: MessageState;
  carrier?: string;
  carrierMessageId?: string;
  /** When the message was handed to the carrier (Infobip's `sentAt`). */
  sentAt?: number;
  doneAt?: number;
  mccMnc?: string;
  attempts: number;
}

export interface ClaimedMessage extends StoredMessage {
  leaseUntil: number;
}

/** Everything needed to render a delivery report in any API shape, without another read. */
export interface ReportData {
  bulkId: string;
  messageId: string;
  to: string;
  sender?: string;
  sentAt: number;
  doneAt: number;
  messageCount: number;
  mccMnc?: string;
  callbackData?: string;
  status: StatusRef;
  errorId: number;
  entityId?: string;
  applicationId?: string;
  campaignReferenceId?: string;
  /** API family the message was sent with; webhooks use its shape. */
  api: ApiFamily;
}

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

/** One status change, applied atomically with the report and webhook items it produces. */
export interface StatusChange {
  accountId: string;
  pk: number;
  status: StatusRef;
  errorId: number;
  /** Final changes move the message to `final`; others keep it in its current state. */
  final: boolean;
  at: number;
  mccMnc?: string;
  /**
   * The message was submitted in this same step, to a carrier that knew the outcome at once: the
   * submit's carrier id and time are stored with the status instead of by a markSubmitted first.
   */
  submitted?: { carrier: string; carrierMessageId: string; at: number };
  /**
   * Leave a consume-once pull report (final changes only). The report is the message's final status
   * as stored, so the message row carries the flag instead of a copy of the report.
   */
  pullReport?: boolean;
  /** Webhook items to enqueue. */
  webhooks?: OutboxItemInput[];
  /** The destination's virtual phone received the message (sandbox); recorded only if the change applies. */
  phone?: PhoneReceipt;
}

export interface SubmitResult {
  accountId: string;
  pk: number;
  carrier: string;
  carrierMessageId: string;
  at: number;
  /** When the carrier will never send a receipt, the pipeline expires the message at validUntil. */
}

export interface MessageLogFilter {
  accountId: string;
  since: number;
  sender?: string;
  destination?: string;
  bulkIds?: string[];
  messageIds?: string[];
  campaignReferenceIds?: string[];
  statusGroupId?: number;
  sentSince?: number;
  sentUntil?: number;
  mcc?: string;
  mnc?: string;
  entityId?: string;
  applicationId?: string;
  /** Return messages with pk < beforePk (cursor paging, newest first). */
  beforePk?: number;
  limit: number;
}

export interface ReportFilter {
  accountId: string;
  since: number;
  bulkId?: string;
  messageId?: string;
  entityId?: string;
  applicationId?: string;
  campaignReferenceId?: string;
  limit: number;
}

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

export interface Subscription {
  accountId: string;
  subscriptionId: string;
  channel: string;
  name?: string;
  events: string[];
  /** Stored as given: `{ profileId?, webhook?: { notifyUrl, ... }, security?: {...} }`. */
  profile?: Record<string, unknown>;
  criteria?: Record<string, unknown>[];
  resources?: Record<string, unknown>[];
  createdAt: number;
  updatedAt: number;
}

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
  payload?: Record<string, unknown>;
}

export interface AccountStore {
  /** Returns the account with this name, creating it if absent. */
  ensure(name: string, now: number): Promise<Account>;
  get(id: string): Promise<Account | undefined>;
  findByName(name: string): Promise<Account | undefined>;
}

export interface ApiKeyStore {
  create(key: Omit<ApiKeyRecord, 'revokedAt'>): Promise<ApiKeyRecord>;
  findByLookup(lookup: string): Promise<ApiKeyRecord[]>;
  list(): Promise<ApiKeyRecord[]>;
  /** Returns false when no active key has this id. */
  revoke(id: string, at: number): Promise<boolean>;
  countActive(accountId: string): Promise<number>;
}

export interface MessageStore {
  /** Inserts in one transaction. Returns, for each input in order, the pk or 'duplicate' when (accountId, messageId) exists. */
  insertMany(messages: NewMessage[]): Promise<Array<number | 'duplicate'>>;
  /** Which of these caller message ids already exist in the account. */
  existingMessageIds(accountId: string, messageIds: string[]): Promise<Set<string>>;
  get(accountId: string, messageId: string): Promise<StoredMessage | undefined>;
  /**
   * Claims up to `limit` messages that are `queued` with dueAt <= now, or `dispatching` with an
   * expired lease (a node died mid-dispatch), and moves them to `dispatching` until `leaseUntil`.
   * Safe against concurrent claimers (PostgreSQL: FOR UPDATE SKIP LOCKED).
   */
  claimDue(now: number, limit: number, leaseUntil: number): Promise<ClaimedMessage[]>;
  /** Puts claimed messages back to `queued` with a new dueAt (window closed, carrier busy…). */
  requeue(items: Array<{ accountId: string; pk: number; dueAt: number }>): Promise<void>;
  /** Moves claimed messages to `submitted`, recording the carrier id. */
  markSubmitted(results: SubmitResult[]): Promise<void>;
  /** Submitted messages whose carrier is `carrier`; used to resume receipts after a restart. */
  listSubmitted(carrier: string, limit: number, afterPk?: number): Promise<StoredMessage[]>;
  /** Submitted messages whose validUntil passed without a final receipt. */
  listOverdueSubmitted(now: number, limit: number): Promise<StoredMessage[]>;
  /** Submitted messages by the ids their carrier gave them (a final message takes no more receipts). */
  findByCarrierIds(carrier: string, carrierMessageIds: string[]): Promise<StoredMessage[]>;
  /** Applies status changes, their pull reports and webhook items atomically. Final messages are not changed again. */
  applyStatusChanges(changes: StatusChange[]): Promise<void>;
  /** Newest first. */
  listLogs(filter: MessageLogFilter): Promise<StoredMessage[]>;
  /**
   * Retention: deletes final messages done before `before` whose pull report is not pending,
   * consumed inbound messages, settled webhook items and webhook attempts older than it. Returns
   * messages removed.
   */
  purgeBefore(before: number): Promise<number>;
}

export interface ReportStore {
  /** Returns and consumes (once only) the oldest pending reports matching the filter. */
  consume(filter: ReportFilter): Promise<ReportData[]>;
}

export interface InboundStore {
  /** Stores an inbound message (pullable once unless `pullable` is false) with its webhook items, atomically. */
  insert(message: InboundMessage, options: { pullable: boolean; webhooks?: OutboxItemInput[] }): Promise<void>;
  /** Returns and consumes the oldest pending inbound messages, and how many remain pending. */
  consume(filter: InboundFilter): Promise<{ messages: InboundMessage[]; pending: number }>;
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

export interface SubscriptionStore {
  create(subscription: Subscription): Promise<'created' | 'duplicate'>;
  get(accountId: string, subscriptionId: string): Promise<Subscription | undefined>;
  list(accountId: string, channel?: string): Promise<Subscription[]>;
  update(subscription: Subscription): Promise<boolean>;
  delete(accountId: string, subscriptionId: string): Promise<boolean>;
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
  accounts: AccountStore;
  keys: ApiKeyStore;
  messages: MessageStore;
  reports: ReportStore;
  inbound: InboundStore;
  outbox: OutboxStore;
  subscriptions: SubscriptionStore;
  phones: PhoneStore;
}
