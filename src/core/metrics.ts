import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

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

  readonly outboxPending = new Gauge({
    name: 'switchboard_outbox_pending',
    help: 'Reports and inbound messages waiting to be posted to webhooks',
    registers: [this.registry],
  });

  readonly inboundReceived = new Counter({
    name: 'switchboard_inbound_messages_total',
    help: 'Inbound messages received',
    labelNames: ['channel'] as const,
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'switchboard_' });
  }
}
