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
  /** Idle wait between claims when nothing was due and nobody nudged (default 250 ms). */
  pollMs?: number;
  /** POSTs in flight at once (default 16). */
  concurrency?: number;
}

const PENDING_GAUGE_MS = 5_000;

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
  private gaugeTimer?: NodeJS.Timeout;
  private gaugeRefresh?: Promise<void>;
  private readonly inFlight = new Set<Promise<void>>();
  /** Ids being posted by this process; a lease that ran out while a slow POST lasts must not send them twice. */
  private readonly sending = new Set<number>();
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly leaseMs: number;

  constructor(private readonly deps: WebhookSenderDeps) {
    this.batchSize = deps.batchSize ?? 50;
    this.pollMs = deps.pollMs ?? 250;
    this.concurrency = deps.concurrency ?? 64;
    // Covers waiting for a free slot plus the POST itself; an item whose lease ran out (its node died)
    // is claimed again by anyone.
    this.leaseMs = deps.timeoutMs * 3 + 30_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
    this.refreshPendingGauge();
    this.gaugeTimer = setInterval(() => this.refreshPendingGauge(), PENDING_GAUGE_MS);
    this.gaugeTimer.unref();
  }

  /** Something was enqueued: claim now instead of at the next poll. */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /** Stops claiming and waits for the POSTs in flight (each bounded by the timeout). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.gaugeTimer);
    this.wake?.();
    await this.loop;
    await Promise.all(this.inFlight);
    await this.gaugeRefresh;
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
    const claimed = await this.deps.store.outbox.claimDue(now, this.batchSize, now + this.leaseMs);
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

  private idle(): Promise<void> {
    if (this.nudged) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.pollMs);
      this.wake = done;
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

  private refreshPendingGauge(): void {
    if (this.gaugeRefresh) return;
    this.gaugeRefresh = this.deps.store.outbox
      .countByState()
      .then((counts) => this.deps.metrics.outboxPending.set(counts.pending))
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'could not count pending webhooks'))
      .finally(() => {
        this.gaugeRefresh = undefined;
      });
  }
}
