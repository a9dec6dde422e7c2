import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { Authenticator } from './core/auth/authenticator.js';
import { ensureBootstrapKey } from './core/auth/bootstrap-key.js';
import { type Clock, systemClock } from './core/clock.js';
import { Metrics } from './core/metrics.js';
import { WebhookSender } from './core/outbox/webhook-sender.js';
import { Dispatcher } from './core/pipeline/dispatcher.js';
import { RetentionSweeper } from './core/pipeline/retention.js';
import { StatusRecorder } from './core/pipeline/status-recorder.js';
import { openStore } from './core/store/open-store.js';
import type { Store } from './core/store/types.js';
import { SubscriptionMatcher } from './core/subscriptions/matcher.js';
import type { Config } from './config.js';
import type { AppContext, Logger } from './context.js';
import { SandboxNetwork } from './network/sandbox/sandbox-network.js';
import { loadSandboxRules } from './network/sandbox/rules.js';
import { SingleCarrierRouter } from './network/single-carrier-router.js';
import { MessageWriter } from './sms/accept/message-writer.js';
import { InboundService } from './sms/inbound/inbound-service.js';
import { renderDeliveryReport } from './sms/wire/report-shapes.js';

export interface ServerOptions {
  config: Config;
  clock?: Clock;
  logger?: Logger;
  /** Printed once when a key had to be generated (the CLI passes stdout). */
  announceKey?: (line: string) => void;
}

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** Base URL the server listens on, e.g. http://127.0.0.1:8080 */
  url: string;
  close(): Promise<void>;
}

export function createLogger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    base: { node: config.nodeId },
    redact: { paths: ['req.headers.authorization', '*.password', '*.secret', '*.apiKey'], censor: '[redacted]' },
  });
}

async function assemble(config: Config, store: Store, clock: Clock, log: Logger): Promise<AppContext> {
  const metrics = new Metrics();
  const subscriptions = new SubscriptionMatcher({ store, clock });
  const webhookSender = new WebhookSender({
    store,
    clock,
    metrics,
    log,
    retryMs: config.webhookRetryMs,
    maxAttempts: config.webhookMaxAttempts,
    timeoutMs: config.webhookTimeoutMs,
  });
  const onWebhooksQueued = (): void => webhookSender.nudge();
  const statusRecorder = new StatusRecorder({
    store,
    clock,
    metrics,
    log,
    subscriptions,
    renderReport: renderDeliveryReport,
    onWebhooksQueued,
  });
  const inbound = new InboundService({ store, clock, metrics, log, subscriptions, onWebhooksQueued });
  const rules = config.sandboxRulesFile ? await loadSandboxRules(config.sandboxRulesFile) : [];
  const sandbox = new SandboxNetwork({ store, clock, log, latencyMs: config.sandboxLatencyMs, rules });
  const dispatcher = new Dispatcher({
    store,
    clock,
    router: new SingleCarrierRouter(sandbox),
    recorder: statusRecorder,
    metrics,
    log,
  });
  const messageWriter = new MessageWriter({ store, onCommitted: () => dispatcher.nudge() });
  const authenticator = new Authenticator(store.keys, clock, config.authCacheMs);
  return {
    config,
    clock,
    store,
    metrics,
    log,
    authenticator,
    messageWriter,
    dispatcher,
    statusRecorder,
    sandbox,
    inbound,
    subscriptions,
    webhookSender,
  };
}

/**
 * Opens the store, migrates it, makes sure the default account has a key, starts the carrier
 * network and the workers, then listens. `close()` is the graceful path SIGTERM takes: stop
 * accepting, finish in-flight requests and work, then close the store.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? createLogger(config);
  const store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema });
  let ready = false;
  try {
    await store.migrate();
    await ensureBootstrapKey(store, config, clock, options.announceKey ?? ((line) => log.warn(line)));
    const ctx = await assemble(config, store, clock, log);
    const app = await buildApp(ctx, { logger: log, isReady: () => ready });
    await ctx.sandbox.start({
      receipts: (carrier, receipts) => void ctx.statusRecorder.recordReceipts(carrier, receipts),
      inbound: (messages) => void ctx.inbound.receive(messages),
    });
    await ctx.dispatcher.start();
    ctx.webhookSender.start();
    const retention = new RetentionSweeper({ store, clock, log, retentionMs: config.retentionMs });
    retention.start();
    const address = await app.listen({ port: config.port, host: config.host });
    ready = true;
    let closing: Promise<void> | undefined;
    const close = (): Promise<void> =>
      (closing ??= (async () => {
        ready = false;
        await app.close();
        await ctx.messageWriter.flush();
        await ctx.dispatcher.stop();
        await ctx.sandbox.stop();
        await ctx.webhookSender.stop();
        await retention.stop();
        await store.close();
      })());
    return { app, ctx, url: address.replace('[::1]', '127.0.0.1'), close };
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}
