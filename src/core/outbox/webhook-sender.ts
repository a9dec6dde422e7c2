import type { Logger } from '../../logger.js';
import type { Clock } from '../clock.js';
import type { Metrics } from '../metrics.js';
import type { Store } from '../store/types.js';
import { groupIntoBatches, type WebhookBatch } from './batching.js';
import { settle } from './retry-policy.js';
import { authHeaders } from './webhook-auth.js';
import { webhookBodyText } from './webhook-body.js';
import { postWebhook } from './webhook-post.js';
import { yieldToEventLoop } from '../yield.js';
import { IDLE_MS } from '../idle.js';

export interface WebhookSenderDeps {
  store: Store;
  clock: Clock;
  metrics: Metrics;
  log: Logger;
  /** The "minute" of Infobip's retry schedule `1 min + 1 min × n²`. */
  retryMs: number;
  /** POSTs of one batch before its items are given up (`failed`). */
  maxAttempts: number;
  timeoutMs: number;
  /** Items claimed from the outbox at once (default 50; an item holds up to one POST's payloads). */
  batchSize?: number;
  /** Wait for a nudge after a claim that was not full, before looking at the store again (default 250 ms). */
  pollMs?: number;
  /**
   * Longest sleep of an idle sender (default IDLE_MS): once a look finds nothing, it sleeps until
   * the next item is due or a nudge; this bounds how late it sees items due that nobody nudged for.
   */
  idleMs?: number;
  /** This node: recorded with each claim, so that if it dies the others free its items at once. */
  nodeId?: string;
  /** POSTs in flight at once (default 16). */
  concurrency?: number;
}


/**
 * Delivers the durable outbox: claims due items, batches them per target into POSTs of up to 100,
 * posts several batches in parallel and records every attempt with its outcome in the store. Retries
 * are just items put back with a later dueAt, so they survive restarts and work across nodes. The
 * store hands out a stream's items one at a time, so POSTs of different streams run in parallel and
 * those of one stream in order.
 */
export class WebhookSender {
  private running = false;
  private loop?: Promise<void>;
  private nudged = false;
  private wake?: () => void;
  /** The last wait ended without a nudge: the next idle wait sleeps until the store's next due item. */
  private quiet = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Ids being posted by this process; a lease that ran out while a slow POST lasts must not send them twice. */
  private readonly sending = new Set<number>();
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly idleMs: number;
  private readonly concurrency: number;
  private readonly leaseMs: number;

  constructor(private readonly deps: WebhookSenderDeps) {
    this.batchSize = deps.batchSize ?? 50;
    this.pollMs = deps.pollMs ?? 250;
    this.idleMs = deps.idleMs ?? IDLE_MS;
    this.concurrency = deps.concurrency ?? 64;
    // Covers waiting for a free slot plus the POST itself; an item whose lease ran out (its node died)
    // is claimed again by anyone.
    this.leaseMs = deps.timeoutMs * 3 + 30_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
    this.deps.metrics.countPendingWebhooks = async () => (await this.deps.store.outbox.countByState()).pending;
  }

  /** Something was enqueued: claim now instead of at the next poll. */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /**
   * Take-over: the items leased by these nodes (found dead) are freed and sent now rather than when
   * their leases lapse.
   */
  async takeOver(nodeIds: string[], silentBefore: number): Promise<number> {
    const freed = await this.deps.store.outbox.releaseLeases(nodeIds, silentBefore);
    if (freed > 0) this.nudge();
    return freed;
  }

  /** Stops claiming and waits for the POSTs in flight (each bounded by the timeout). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.deps.metrics.countPendingWebhooks = undefined;
    this.wake?.();
    await this.loop;
    await Promise.all(this.inFlight);
  }

  private async run(): Promise<void> {
    while (this.running) {
      let full = false;
      try {
        full = await this.claimAndLaunch();
      } catch (error) {
        this.deps.log.error({ err: error }, 'webhook outbox claim failed');
      }
      if (this.running && !full) await this.idle();
      else await yieldToEventLoop();
    }
  }

  /** Returns whether the claim came back full, i.e. more items are probably due. */
  private async claimAndLaunch(): Promise<boolean> {
    await this.freeSlot();
    if (!this.running) return false;
    this.nudged = false;
    const now = this.deps.clock.now();
    const claimed = await this.deps.store.outbox.claimDue(now, this.batchSize, now + this.leaseMs, this.deps.nodeId);
    const fresh = claimed.filter((item) => !this.sending.has(item.id));
    for (const batch of groupIntoBatches(fresh)) {
      await this.freeSlot();
      // Batches not started before a stop keep their lease and are claimed again once it expires.
      if (!this.running) break;
      this.launch(batch);
    }
    return claimed.length >= this.batchSize;
  }

  private async freeSlot(): Promise<void> {
    while (this.inFlight.size >= this.concurrency) await Promise.race(this.inFlight);
  }

  /**
   * Waits for a nudge for a poll interval; a sender that stays unnudged looks once more and then
   * sleeps until the store's next due item (a retry), at most idleMs, instead of polling.
   */
  private async idle(): Promise<void> {
    let dueAt: number | undefined;
    let ms = this.pollMs;
    if (this.quiet) {
      dueAt = await this.deps.store.outbox.nextDueAt().catch(() => undefined);
      // One due already that the claim did not take waits behind its stream's head, which nudges.
      ms = this.idleMs;
      if (dueAt !== undefined && dueAt <= this.deps.clock.now()) dueAt = undefined;
    }
    this.quiet = !(await this.sleep(ms, dueAt));
  }

  /** Resolves true when woken (nudge, stop or `dueAt` on the clock), false after `ms` of real time. */
  private sleep(ms: number, dueAt: number | undefined): Promise<boolean> {
    if (this.nudged || !this.running) return Promise.resolve(true);
    const { clock } = this.deps;
    return new Promise((resolve) => {
      const done = (woken: boolean): void => {
        clearTimeout(timer);
        due?.cancel();
        this.wake = undefined;
        resolve(woken);
      };
      const timer = setTimeout(() => done(false), ms);
      const due = dueAt === undefined ? undefined : clock.setTimer(dueAt - clock.now(), () => done(true));
      this.wake = () => done(true);
    });
  }

  private launch(batch: WebhookBatch): void {
    const ids = batch.items.map((item) => item.id);
    for (const id of ids) this.sending.add(id);
    const task: Promise<void> = this.deliver(batch)
      .catch((error: unknown) => this.deps.log.error({ err: error, url: batch.url }, 'webhook attempt not recorded'))
      .finally(() => {
        this.inFlight.delete(task);
        for (const id of ids) this.sending.delete(id);
      });
    this.inFlight.add(task);
  }

  private async deliver(batch: WebhookBatch): Promise<void> {
    const { store, clock, metrics, log, retryMs, maxAttempts, timeoutMs } = this.deps;
    const body = webhookBodyText(batch.format, batch.items.map((item) => item.payloads), batch.payloadCount);
    const startedAt = clock.now();
    const result = await postWebhook(batch.url, body, authHeaders(batch.security, body), timeoutMs);
    const { outcome, next } = settle(result.ok, batch.attemptNo, { retryMs, maxAttempts, now: clock.now() });
    await store.outbox.recordAttempt(
      {
        accountId: batch.accountId,
        url: batch.url,
        itemIds: batch.items.map((item) => item.id),
        payloadCount: batch.payloadCount,
        attemptNo: batch.attemptNo,
        startedAt,
        durationMs: result.durationMs,
        httpStatus: result.httpStatus,
        error: result.error,
        outcome,
        responseBody: result.responseBody,
        responseContentType: result.responseContentType,
      },
      next,
    );
    // The next item of the stream is claimable only now; waiting for the poll would space a call's
    // events by the poll interval.
    if (batch.stream !== undefined && outcome !== 'retry') this.nudge();
    metrics.webhookPosts.inc({ outcome });
    metrics.webhookItems.inc({ outcome }, batch.payloadCount);
    metrics.webhookLatency.observe(result.durationMs / 1000);
    if (outcome !== 'delivered') {
      // URL, status and error only: credentials live in headers and are never logged.
      log.warn(
        { url: batch.url, attempt: batch.attemptNo, items: batch.payloadCount, httpStatus: result.httpStatus, error: result.error, outcome },
        'webhook POST failed',
      );
    }
  }
}
