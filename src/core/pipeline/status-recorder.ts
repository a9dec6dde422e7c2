import type { Logger } from '../../logger.js';
import type { CarrierReceipt, SettledOutcome } from '../../network/carrier.js';
import { reportDataFromMessage } from '../store/report-data.js';
import type { Clock } from '../clock.js';
import type { Metrics } from '../metrics.js';
import type { MessagePart, NewMessage, OutboxItemInput, ReportData, StatusChange, StatusRef, Store, StoredMessage, SubmitResult } from '../store/types.js';
import type { MatchAttributes, SubscriptionMatcher, WebhookTarget } from '../subscriptions/matcher.js';
import { KeptReceiptRetry } from './kept-receipts.js';
import { expiredFromParts } from './part-status.js';
import { ReceiptBatcher, type ReceiptBatch } from './receipt-batcher.js';
import { ReceiptMatcher, type MatchedUpdate, type StatusUpdate } from './receipt-matcher.js';
import { SubmitWriteBehind } from './submit-write-behind.js';
import { HELD_UNTIL_RELEASED, orderedNextOf } from './ordered-messages.js';
import { ERROR, STATUS, ref, statusObject } from './statuses.js';
import { withFields } from '../with-fields.js';

export interface StatusRecorderDeps {
  store: Store;
  clock: Clock;
  metrics: Metrics;
  log: Logger;
  subscriptions: SubscriptionMatcher;
  /** Renders a report in the message's API shape; the webhook item's payload. */
  renderReport: (data: ReportData) => unknown;
  onWebhooksQueued: () => void;
  /**
   * The message that carries on for one that failed on its channel (an RCS message's SMS failover),
   * if it has one; it is stored with the failure, exactly once.
   */
  failoverFor?: (message: StoredMessage, at: number) => NewMessage | undefined;
  /** A status change stored new messages (failovers): the dispatcher should look. */
  onMessagesQueued?: () => void;
  /** Most receipts written in one transaction (default 100: like claims, a long write holds SQLite's lock). */
  maxBatch?: number;
  /** Waits between attempts when writing receipts fails (default 100 ms, 1 s, 5 s). */
  retryDelaysMs?: number[];
  /** Submitted messages kept in memory so their receipts need no read (default 20 000). */
  maxRemembered?: number;
  /** How often a receipt that matched no message is tried again (default 1 s). */
  keptReceiptRetryMs?: number;
  /**
   * How long such a receipt is kept (default 2 min): long enough for the node that submitted its
   * message to store the submit (within its 5 s submit deadline), short enough that receipts for
   * messages that are not ours do not pile up.
   */
  keepUnmatchedMs?: number;
  /**
   * Submits to the carriers it names wait up to `delayMs` for their final receipt and are written
   * with it (SubmitWriteBehind); other submits are written at once (markSubmitted).
   */
  submitWriteBehind?: { delayMs: number; carriers: (carrier: string) => boolean; nodeId?: string };
}


/** A message the carrier took and already gave its final outcome (SubmitOutcome.settled). */
export interface SettledSubmit {
  /** As submitted: state, carrier id and sentAt already set from `submit`. */
  message: StoredMessage;
  submit: SubmitResult;
  outcome: SettledOutcome;
}

/**
 * Turns carrier receipts and pipeline verdicts into status changes, each written atomically with
 * the report it produces. Where a report goes:
 *
 * - intermediate (non-final) statuses are reported only when the message asked for
 *   `intermediateReport`, and only by push; without a push target they are just recorded;
 * - `notify: false` suppresses every push; the final report then stays pullable (Infobip's flag
 *   turns off the DLR callback, not the reports API);
 * - otherwise the message's own `webhooks.delivery.url` wins, then the account's SMS DELIVERY
 *   subscriptions (one item per matching subscription);
 * - a final status with no push target leaves a consume-once pull report.
 *
 * Receipts arriving in the same turn of the event loop are written in one transaction (group
 * commit); receipts for messages already final are ignored. A receipt that matches no submitted
 * message nor part (its message's submit not stored yet, by another node say) is kept in the store
 * and matched again every second, by any node, for two minutes; then it is dropped.
 */
export class StatusRecorder {
  private readonly batcher: ReceiptBatcher;
  private readonly submissions = new Set<Promise<void>>();
  /** Changes whose message's failure cancels the next message of its ordered request. */
  private readonly cancels = new WeakMap<StatusChange, string>();
  private readonly matcher: ReceiptMatcher;
  private readonly keptRetry: KeptReceiptRetry;
  private readonly writeBehind: SubmitWriteBehind | undefined;

  constructor(private readonly deps: StatusRecorderDeps) {
    this.matcher = new ReceiptMatcher(deps.store, deps.maxRemembered ?? 20_000);
    const behind = deps.submitWriteBehind;
    if (behind && behind.delayMs > 0) {
      this.writeBehind = new SubmitWriteBehind({ store: deps.store, clock: deps.clock, log: deps.log, delayMs: behind.delayMs, nodeId: behind.nodeId });
    }
    this.keptRetry = new KeptReceiptRetry({
      store: deps.store,
      clock: deps.clock,
      log: deps.log,
      matcher: this.matcher,
      retryMs: deps.keptReceiptRetryMs ?? 1000,
      keepMs: deps.keepUnmatchedMs ?? 120_000,
      record: async (matched) => {
        const changes: StatusChange[] = [];
        const riding: number[] = [];
        for (const { carrier, updates } of matched) await this.collectChanges(carrier, updates, changes, new Set(), riding);
        await this.applyWithSubmits(changes, riding);
      },
    });
    this.batcher = new ReceiptBatcher({
      write: (batch) => this.writeReceipts(batch),
      log: deps.log,
      maxBatch: deps.maxBatch ?? 100,
      retryDelaysMs: deps.retryDelaysMs ?? [100, 1000, 5000],
    });
  }

  /**
   * Queues receipts for the next group commit. Resolves true once they are written, false when the
   * write was given up after its retries (logged); it never rejects.
   */
  recordReceipts(carrier: string, receipts: CarrierReceipt[]): Promise<boolean> {
    return this.batcher.add(carrier, receipts);
  }

  /**
   * Receipts wait until `work` (a submit and its markSubmitted) settles: a fast carrier may report
   * before the carrier id it returned is stored, and such a receipt would otherwise be unknown.
   */
  holdReceiptsUntil(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.submissions.add(settled);
    void settled.then(() => this.submissions.delete(settled));
  }

  /**
   * Keeps just-submitted messages at hand for their receipts. Only a cache: a receipt for a message
   * not here (evicted, or submitted by another node or before a restart) is looked up in the store,
   * and the store's final-is-final guard makes a stale entry harmless.
   */
  remember(carrier: string, messages: StoredMessage[]): void {
    this.matcher.remember(carrier, messages);
  }

  /**
   * Holds the submits to `carrier` that can wait for their final receipt, to be written with it if
   * it comes soon, else on their own (SubmitWriteBehind): those of single-part messages, to the
   * carriers configured. Returns the others, for the caller to write at once (a long message's parts
   * are stored with its submit).
   */
  holdSubmits(carrier: string, results: SubmitResult[]): SubmitResult[] {
    if (this.writeBehind === undefined || !this.deps.submitWriteBehind!.carriers(carrier)) return results;
    const held: SubmitResult[] = [];
    const writeNow: SubmitResult[] = [];
    for (const result of results) (result.partIds === undefined ? held : writeNow).push(result);
    if (held.length > 0) this.writeBehind.hold(held);
    return writeNow;
  }

  /** Writes the submits still held (at stop). */
  async writeHeldSubmits(): Promise<void> {
    await this.writeBehind?.writeAll();
  }

  /** Ends messages with a final status decided by the pipeline (expired, refused by the carrier). */
  async recordFinal(messages: StoredMessage[], status: StatusRef, errorId: number): Promise<void> {
    if (messages.length === 0) return;
    const at = this.deps.clock.now();
    const changes: StatusChange[] = [];
    for (const message of messages) changes.push(await this.changeFor(message, { status, errorId, final: true, at }));
    await this.apply(changes);
  }

  /**
   * Stores the submit and the final status of messages whose carrier knew the outcome at once, in
   * one write per message (with what the phone received, if anything): the report reads as if a receipt had
   * followed the submit.
   */
  async recordSettled(settled: SettledSubmit[]): Promise<void> {
    const changes: StatusChange[] = [];
    for (const { message, submit, outcome } of settled) {
      const change = await this.changeFor(message, { status: outcome.status, errorId: outcome.errorId, final: true, at: outcome.at });
      change.submitted = { carrier: submit.carrier, carrierMessageId: submit.carrierMessageId, at: submit.at };
      if (outcome.phone) change.phone = outcome.phone;
      changes.push(change);
    }
    await this.apply(changes);
  }

  /**
   * Ends submitted messages whose validity passed without a final receipt: EXPIRED_DLR_UNKNOWN, or
   * for a long message with part rows, what its parts' receipts make of it (part-status.ts).
   */
  async recordOverdue(messages: StoredMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const at = this.deps.clock.now();
    const long = messages.filter((m) => m.messageCount > 1).map((m) => m.pk);
    const parts = long.length > 0 ? await this.deps.store.parts.list(long) : new Map<number, MessagePart[]>();
    const changes: StatusChange[] = [];
    for (const message of messages) {
      const ofMessage = parts.get(message.pk);
      const verdict = ofMessage ? expiredFromParts(ofMessage, at) : { status: ref(STATUS.EXPIRED_DLR_UNKNOWN), errorId: ERROR.EC_VALIDITY_EXPIRED.id, at };
      changes.push(await this.changeFor(message, withFields(verdict, { final: true })));
    }
    await this.apply(changes);
  }

  /** Matches again the receipts kept for want of their message (see KeptReceiptRetry); any node runs it. */
  retryKeptReceipts(): Promise<void> {
    return this.keptRetry.retry();
  }

  /** Resolves once fewer than `below` receipts wait to be recorded. */
  whenBacklogBelow(below: number): Promise<void> {
    return this.batcher.whenBelow(below);
  }

  /** Resolves when every receipt queued so far has been handled. */
  idle(): Promise<void> {
    return this.batcher.idle();
  }

  private async writeReceipts(batch: ReceiptBatch): Promise<void> {
    if (this.submissions.size > 0) await Promise.all([...this.submissions]);
    const changes: StatusChange[] = [];
    const ended = new Set<number>();
    const riding: number[] = [];
    const now = this.deps.clock.now();
    try {
      for (const [carrier, receipts] of batch) {
        const { updates, unmatched } = await this.matcher.match(carrier, receipts);
        await this.collectChanges(carrier, updates, changes, ended, riding);
        // Kept before the network is answered, like a matched receipt's status.
        if (unmatched.length > 0) await this.deps.store.keptReceipts.keep(carrier, unmatched, now, now);
      }
    } catch (error) {
      this.writeBehind?.notWritten(riding);
      throw error;
    }
    await this.applyWithSubmits(changes, riding);
  }

  /** `apply`, for receipts' changes, some of which may carry a held submit (the pks in `riding`). */
  private async applyWithSubmits(changes: StatusChange[], riding: number[]): Promise<void> {
    const behind = this.writeBehind;
    if (!behind) return this.apply(changes);
    try {
      await behind.exclusive(() => this.apply(changes));
    } catch (error) {
      behind.notWritten(riding);
      throw error;
    }
    behind.written(riding);
  }

  private async collectChanges(
    carrier: string,
    updates: MatchedUpdate[],
    changes: StatusChange[],
    ended: Set<number>,
    riding: number[],
  ): Promise<void> {
    for (const { message, update } of updates) {
      if (message.state === 'final' || ended.has(message.pk)) continue;
      const change = await this.changeFor(message, update);
      changes.push(change);
      const held = update.final ? this.writeBehind?.ride(message.pk) : undefined;
      if (held) {
        change.submitted = { carrier: held.carrier, carrierMessageId: held.carrierMessageId, at: held.at };
        riding.push(message.pk);
      }
      if (update.final) {
        ended.add(message.pk);
        this.matcher.forget(carrier, message);
      }
    }
  }

  private async changeFor(message: StoredMessage, received: StatusUpdate): Promise<StatusChange> {
    let update = received;
    const failed = update.final && update.status.groupId !== DELIVERED_GROUP;
    const failover = failed ? this.deps.failoverFor?.(message, update.at) : undefined;
    // A failure that hands the message to its failover does not end it: it went on to its next
    // channel, which Infobip reports as PENDING_ENROUTE with the failure's error (and so it is stored).
    if (failover) update = { ...update, status: ref(STATUS.PENDING_ENROUTE) };
    const change: StatusChange = { accountId: message.accountId, pk: message.pk, ...update };
    const next = update.final ? orderedNextOf(message) : undefined;
    if (next) {
      if (failed && next.stopOnFailure) this.cancels.set(change, next.messageId);
      else change.release = { messageId: next.messageId, at: update.at };
    }
    if (failover) {
      change.spawn = failover;
      // The failed attempt is reported only to those who asked for every channel's report.
      if (message.webhook.receiveTriggeredFailoverReports !== true) return change;
    }
    if (!update.final && !message.webhook.intermediateReport) return change;
    const webhooks = await this.pushItems(message, update);
    if (webhooks.length > 0) change.webhooks = webhooks;
    // A pull report is read back from the message once final: nothing to render for it now.
    else if (update.final) change.pullReport = true;
    return change;
  }

  private async pushItems(message: StoredMessage, update: StatusUpdate): Promise<OutboxItemInput[]> {
    if (message.webhook.notify === false) return [];
    // The message's own URL wins over the account's subscriptions.
    const targets: Array<Pick<WebhookTarget, 'url'> & Partial<WebhookTarget>> = message.webhook.url
      ? [{ url: message.webhook.url }]
      : await this.deps.subscriptions.targetsFor(message.accountId, message.api === 'rcs2' ? 'RCS' : 'SMS', 'DELIVERY', subscriptionAttributes(message));
    if (targets.length === 0) return [];
    const data = reportDataFromMessage(message, update.status, update.errorId, update.at);
    if (update.mccMnc !== undefined) data.mccMnc = update.mccMnc;
    const now = this.deps.clock.now();
    return targets.map((target) => {
      const item: OutboxItemInput = {
        accountId: message.accountId,
        url: target.url,
        format: message.api === 'rcs2' ? 'rcs-dlr' : 'sms-dlr',
        payload: this.deps.renderReport(data),
        createdAt: now,
        dueAt: now,
      };
      if (target.subscriptionId !== undefined) item.subscriptionId = target.subscriptionId;
      if (target.security) item.security = target.security;
      return item;
    });
  }

  /**
   * The changes and, down each ordered chain whose message failed and stops on failure, the
   * cancellation of the messages held behind it: in one write, so no chain is left half cancelled.
   */
  private async withCancellations(changes: StatusChange[]): Promise<StatusChange[]> {
    const all = [...changes];
    for (let i = 0; i < all.length; i++) {
      const change = all[i]!;
      const cancel = this.cancels.get(change);
      if (cancel === undefined) continue;
      const held = await this.deps.store.messages.get(change.accountId, cancel);
      if (held?.state !== 'queued' || held.dueAt !== HELD_UNTIL_RELEASED) continue;
      all.push(await this.changeFor(held, { status: ref(STATUS.UNDELIVERABLE_NOT_SENT), errorId: ERROR.EC_MESSAGE_CANCELED.id, final: true, at: change.at }));
    }
    return all;
  }

  private async apply(requested: StatusChange[]): Promise<void> {
    if (requested.length === 0) return;
    const changes = await this.withCancellations(requested);
    await this.deps.store.messages.applyStatusChanges(changes);
    let queued = false;
    let spawned = false;
    // Counted per group and added once each: a labelled increment builds its label key every time.
    const byGroup = new Map<string, number>();
    for (const change of changes) {
      const group = statusObject(change.status).groupName;
      byGroup.set(group, (byGroup.get(group) ?? 0) + 1);
      if (change.webhooks && change.webhooks.length > 0) queued = true;
      if (change.spawn || change.release) spawned = true;
    }
    for (const [group, count] of byGroup) this.deps.metrics.statusChanges.inc({ group }, count);
    if (queued) this.deps.onWebhooksQueued();
    if (spawned) this.deps.onMessagesQueued?.();
  }
}

const DELIVERED_GROUP = 3;

/** The message's attributes that DELIVERY subscription criteria match on. */
function subscriptionAttributes(message: StoredMessage): MatchAttributes {
  const attributes: MatchAttributes = {};
  if (message.entityId !== undefined) attributes.entityId = message.entityId;
  if (message.applicationId !== undefined) attributes.applicationId = message.applicationId;
  if (message.sender !== undefined) attributes.to = message.sender;
  return attributes;
}

