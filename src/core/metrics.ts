import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** How often the event-loop delay histogram samples (prom-client's default is 10 ms). */
export const EVENT_LOOP_SAMPLE_MS = 1000;

/** Every metric the server exports, created once per server so tests can run several side by side. */
export class Metrics {
  readonly registry = new Registry();

  readonly messagesAccepted = new Counter({
    name: 'switchboard_messages_accepted_total',
    help: 'Messages accepted by the API (one per destination)',
    labelNames: ['channel', 'api'] as const,
    registers: [this.registry],
  });

  readonly messagesRejected = new Counter({
    name: 'switchboard_messages_rejected_total',
    help: 'Messages rejected at acceptance, by status name',
    labelNames: ['channel', 'status'] as const,
    registers: [this.registry],
  });

  readonly messagesSubmitted = new Counter({
    name: 'switchboard_messages_submitted_total',
    help: 'Messages handed to a carrier connector',
    labelNames: ['carrier'] as const,
    registers: [this.registry],
  });

  readonly statusChanges = new Counter({
    name: 'switchboard_message_status_changes_total',
    help: 'Message status changes recorded, by status group',
    labelNames: ['group'] as const,
    registers: [this.registry],
  });

  readonly webhookPosts = new Counter({
    name: 'switchboard_webhook_posts_total',
    help: 'Webhook POSTs by outcome (delivered, retry, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookItems = new Counter({
    name: 'switchboard_webhook_items_total',
    help: 'Reports and inbound messages posted to webhooks, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookLatency = new Histogram({
    name: 'switchboard_webhook_post_seconds',
    help: 'Duration of webhook POSTs',
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10],
    registers: [this.registry],
  });

  /** What `outboxPending` reports, counted when metrics are read (the webhook sender sets it). */
  countPendingWebhooks: (() => Promise<number>) | undefined;

  readonly outboxPending: Gauge = new Gauge({
    name: 'switchboard_outbox_pending',
    help: 'Reports and inbound messages waiting to be posted to webhooks',
    registers: [this.registry],
    // Counted on scrape rather than on a timer: an idle server does nothing between scrapes.
    collect: async () => {
      // A failed count leaves the last value: a scrape does not fail for it.
      const count = this.countPendingWebhooks ? await this.countPendingWebhooks().catch(() => undefined) : undefined;
      if (count !== undefined) this.outboxPending.set(count);
    },
  });

  readonly inboundReceived = new Counter({
    name: 'switchboard_inbound_messages_total',
    help: 'Inbound messages received',
    labelNames: ['channel'] as const,
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) {
      // The event-loop delay histogram samples with a timer: at prom-client's default 10 ms it woke
      // an idle server a hundred times a second. A sample a second still catches a stalled loop
      // (the sample is late by the stall), and `nodejs_eventloop_lag_seconds` is measured at scrape.
      collectDefaultMetrics({ register: this.registry, prefix: 'switchboard_', eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
    }
  }
}
