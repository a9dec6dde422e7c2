/** Messages on the pipeline: acceptance, claims, submits, status changes, logs. */
import type { OutboxItemInput } from './outbox.js';
import type { PhoneReceipt } from './phones.js';

/** The API a message was sent with: its reports, logs and webhooks take that API's shapes. */
export type ApiFamily = 'sms3' | 'sms2' | 'rcs2';

/** The network channel a message travels: an RCS message's SMS failover is an SMS sent for the RCS API. */
export type MessageChannel = 'SMS' | 'RCS';

/** (groupId, id) identifies a status; names and descriptions come from core/pipeline/statuses. */
export interface StatusRef {
  groupId: number;
  id: number;
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

export type SmsContent = TextContent | BinaryContent;

/** RCS content as the request gave it (TEXT, FILE, CARD, CAROUSEL, PROVIDER_TEMPLATE): delivered and echoed in logs as it is. */
export interface RcsContent {
  type: 'TEXT' | 'FILE' | 'CARD' | 'CAROUSEL' | 'PROVIDER_TEMPLATE';
  [field: string]: unknown;
}

export type MessageContent = SmsContent | RcsContent;

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
  /** RCS: the reports of every channel tried, not only the final one's. */
  receiveTriggeredFailoverReports?: boolean;
  /** RCS: where the seen report goes. */
  seenUrl?: string;
}

/** Pipeline position of a message. `final` messages never change again. */
export type MessageState = 'queued' | 'dispatching' | 'submitted' | 'final';

export interface NewMessage {
  accountId: string;
  messageId: string;
  bulkId: string;
  api: ApiFamily;
  /** SMS when absent. */
  channel?: MessageChannel;
  sender?: string;
  destination: string;
  content: MessageContent;
  /** RCS content has no encoding of its own: RCS. */
  encoding: 'GSM7' | 'UCS2' | 'BINARY' | 'RCS';
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
  /** With `dispatching`: the node whose dispatcher holds it, as a claim would record it. */
  nodeId?: string;
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
  /**
   * A message the change starts (an RCS message's SMS failover), inserted only if the change
   * applies, so that a failover is created exactly once however often its trigger is reported.
   */
  spawn?: NewMessage;
  /**
   * A message held until this one ends (the next of an ordered request) becomes due at `at`, only
   * if the change applies and the message is still queued.
   */
  release?: { messageId: string; at: number };
  /** The destination's virtual phone received the message (sandbox); recorded only if the change applies. */
  phone?: PhoneReceipt;
}

export interface SubmitResult {
  accountId: string;
  pk: number;
  carrier: string;
  carrierMessageId: string;
  at: number;
  /**
   * A long message whose network gave each part its own id (SMPP), in part order: each part is
   * stored with the submit (MessagePartStore), and its receipts are matched by part. Absent for a
   * message the network knows by one id, which the message row carries alone.
   */
  partIds?: string[];
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
  /** The channel whose messages are listed (SMS when absent): SMS logs list SMS, failovers too; RCS logs RCS. */
  channel?: MessageChannel;
  /** Return messages with pk < beforePk (cursor paging, newest first). */
  beforePk?: number;
  limit: number;
}

/** What the console lists: messages of every channel, newest first. */
export interface MessageBrowseFilter {
  accountId: string;
  since: number;
  /** Exactly these messages (still within `since` and the other filters). */
  pks?: number[];
  /** Only messages with pk < beforePk. */
  beforePk?: number;
  channel?: MessageChannel;
  /** The sender or the destination. */
  numbers?: string[];
  statusGroupId?: number;
  bulkId?: string;
  /** A case-insensitive substring of the text (an SMS's text or hex, an RCS text or card title and description). */
  text?: string;
  limit: number;
}

/** What a list of messages shows of each: no webhook options, extras or pipeline fields. */
export type MessageSummary = Pick<
  StoredMessage,
  'pk' | 'messageId' | 'bulkId' | 'channel' | 'api' | 'sender' | 'destination' | 'content' | 'encoding' | 'messageCount' | 'status' | 'errorId' | 'createdAt' | 'sentAt' | 'doneAt'
> & {
  /** The RCS message whose SMS failover this is (`extras.failoverOf`). */
  failoverOf?: string;
};

export interface MessageStore {
  /** Inserts in one transaction. Returns, for each input in order, the pk or 'duplicate' when (accountId, messageId) exists. */
  insertMany(messages: NewMessage[]): Promise<Array<number | 'duplicate'>>;
  /** Which of these caller message ids already exist in the account. */
  existingMessageIds(accountId: string, messageIds: string[]): Promise<Set<string>>;
  get(accountId: string, messageId: string): Promise<StoredMessage | undefined>;
  /**
   * Claims up to `limit` messages that are `queued` with dueAt <= now, or `dispatching` with an
   * expired lease (a node died mid-dispatch), and moves them to `dispatching` until `leaseUntil`,
   * held by `nodeId`. Safe against concurrent claimers (PostgreSQL: FOR UPDATE SKIP LOCKED).
   */
  claimDue(now: number, limit: number, leaseUntil: number, nodeId?: string): Promise<ClaimedMessage[]>;
  /** Puts claimed messages back to `queued` with a new dueAt (window closed, carrier busy…). */
  requeue(items: Array<{ accountId: string; pk: number; dueAt: number }>): Promise<void>;
  /**
   * Moves claimed messages to `submitted`, recording the carrier id, the node whose carrier waits for
   * the receipt, and the parts' ids of a long message, in the same transaction.
   */
  markSubmitted(results: SubmitResult[], nodeId?: string): Promise<void>;
  /** Submitted messages whose carrier is `carrier`; used to resume receipts after a restart. */
  listSubmitted(carrier: string, limit: number, afterPk?: number): Promise<StoredMessage[]>;
  /**
   * Take-over: puts the claims of these nodes (`dispatching` messages they hold) back in the queue
   * as they were due, unless the node has beaten since `silentBefore` (it came back). Returns how
   * many went back.
   */
  releaseClaims(nodeIds: string[], silentBefore: number): Promise<number>;
  /**
   * Take-over: makes `nodeId` the holder of up to `limit` messages submitted to `carrier` by these
   * nodes (after `afterPk`, in pk order), unless the node has beaten since `silentBefore`, and returns
   * them, so that this node's carrier waits for their receipts. Each message goes to one adopter.
   */
  adoptSubmitted(carrier: string, nodeIds: string[], silentBefore: number, nodeId: string, limit: number, afterPk?: number): Promise<StoredMessage[]>;
  /**
   * When the dispatcher next has something to do at the latest, as far as the store knows: the
   * earliest due queued message, lapsing claim or validity of a submitted message (undefined: none).
   */
  nextDueAt(): Promise<number | undefined>;
  /** Submitted messages whose validUntil passed without a final receipt. */
  listOverdueSubmitted(now: number, limit: number): Promise<StoredMessage[]>;
  /** Submitted messages by the ids their carrier gave them (a final message takes no more receipts). */
  findByCarrierIds(carrier: string, carrierMessageIds: string[]): Promise<StoredMessage[]>;
  /** Applies status changes, their pull reports and webhook items atomically. Final messages are not changed again. */
  applyStatusChanges(changes: StatusChange[]): Promise<void>;
  /** Newest first. */
  listLogs(filter: MessageLogFilter): Promise<StoredMessage[]>;
  /** Newest first, one indexed walk of the account's messages. */
  browse(filter: MessageBrowseFilter): Promise<MessageSummary[]>;
  /**
   * Retention: deletes final messages done before `before` whose pull report is not pending,
   * consumed inbound messages, settled webhook items and webhook attempts older than it. Returns
   * messages removed.
   */
  purgeBefore(before: number): Promise<number>;
}
