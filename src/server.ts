import type { FastifyInstance } from 'fastify';
import { AggregatorRegistry } from 'prom-client';
import { buildApp } from './app.js';
import { ChangeFeed } from './console/changes/change-feed.js';
import { NodeRelay } from './console/changes/node-relay.js';
import { publishingStore } from './console/changes/publishing-store.js';
import { Authenticator } from './core/auth/authenticator.js';
import { ensureBootstrapKey } from './core/auth/bootstrap-key.js';
import { type Clock, systemClock } from './core/clock.js';
import { Metrics } from './core/metrics.js';
import { DEFAULT_LEASE_MS } from './core/pipeline/dispatcher.js';
import { openStore } from './core/store/open-store.js';
import type { Store } from './core/store/types.js';
import { SubscriptionMatcher } from './core/subscriptions/matcher.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { Engine, type EngineHandle } from './engine/engine.js';
import { ThreadEngine } from './engine/thread-engine.js';
import { loadRoutingConfig } from './network/routing/routing-config.js';
import { createLogger, type Logger } from './logger.js';
import { MessageWriter } from './sms/accept/message-writer.js';
import { SmsAcceptor } from './sms/accept/sms-acceptor.js';
import { InboundService } from './sms/inbound/inbound-service.js';
import { CallSteps } from './voice/call-steps.js';
import { CallsService } from './voice/calls-service.js';
import { PinDelivery } from './verify/pin-delivery.js';
import { VerifyService } from './verify/verify-service.js';
import { callMachineContext, voiceEventTargets } from './voice/voice-setup.js';
import { voicePinReport } from './verify/voice-pin-report.js';

export { createLogger } from './logger.js';

export interface ServerOptions {
  config: Config;
  /** A clock other than the system's keeps the engine in this thread, where the clock lives. */
  clock?: Clock;
  logger?: Logger;
  /** Where the one announcement of a generated key goes (stdout by default; never the logger). */
  announceKey?: (line: string) => void;
  /** The engine thread died: the process can no longer deliver anything (the CLI exits). */
  onFatal?: (error: Error) => void;
  /** The built console to serve at /console (dist/console by default). */
  consoleDir?: string;
}

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** Base URL the server listens on, e.g. http://127.0.0.1:8080 */
  url: string;
  close(): Promise<void>;
}

async function startEngine(
  options: ServerOptions,
  inThread: boolean,
  deps: { store: Store; clock: Clock; log: Logger; metrics: Metrics },
  feed: ChangeFeed,
): Promise<EngineHandle> {
  if (inThread) {
    const onChanges = (batch: Parameters<ChangeFeed['publish']>[0]): void => feed.publish(batch);
    return ThreadEngine.start(options.config, deps.log, options.onFatal ?? (() => undefined), { listenerBuffer: feed.flag.buffer, onChanges });
  }
  // The engine in this thread writes through the same publishing store as the HTTP side.
  return Engine.start({ config: options.config, ...deps });
}

/** /metrics: the HTTP side's registry, plus the engine thread's when it has its own. */
function metricsCollector(metrics: Metrics, engine: EngineHandle): () => Promise<string> {
  if (engine instanceof Engine) return () => metrics.registry.metrics();
  return async () => {
    const [own, engines] = await Promise.all([metrics.registry.getMetricsAsJSON(), engine.metrics()]);
    return AggregatorRegistry.aggregate([own, engines]).metrics();
  };
}

/**
 * Opens the store, migrates it, makes sure the default account has a key, starts the engine (the
 * pipeline behind the API), then listens. `close()` is the graceful path SIGTERM takes: stop
 * accepting, finish in-flight requests and work, then close the store.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  // Routing is read and validated before anything starts: a broken route file stops start-up with its errors.
  const config: Config = { ...options.config, routing: options.config.routing ?? (await loadRoutingConfig(options.config)) };
  options = { ...options, config };
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? createLogger(config);
  // An injected clock lives in this thread, so an engine that must follow it runs here too.
  const engineThread = config.engine === 'thread' && clock === systemClock;
  // The live feed of the console: every write of this thread (and of an engine in it) reports there.
  const feed = new ChangeFeed();
  const store = publishingStore(
    await openStore({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      schema: config.databaseSchema,
      role: engineThread ? 'acceptance' : 'all',
      log,
    }),
    feed.local,
  );
  let ready = false;
  let engine: EngineHandle | undefined;
  let relay: NodeRelay | undefined;
  try {
    await store.migrate();
    // Nodes sharing a PostgreSQL database feed each other's consoles.
    if (store.signals) relay = await NodeRelay.start({ signals: store.signals, nodeId: config.nodeId, feed, log });
    await ensureBootstrapKey(store, config, clock, options.announceKey ?? ((line) => void process.stdout.write(`${line}\n`)));
    const metrics = new Metrics();
    const started = await startEngine(options, engineThread, { store, clock, log, metrics }, feed);
    engine = started;
    const subscriptions = new SubscriptionMatcher({ store, clock, onInvalidate: (accountId) => started.invalidateSubscriptions(accountId) });
    const machine = callMachineContext(config);
    const callSteps = new CallSteps({
      store,
      clock,
      machine,
      apiBaseUrl: config.publicUrl,
      eventTargets: voiceEventTargets(subscriptions),
      scriptReport: voicePinReport,
      onScheduled: (dueAt, webhooks) => {
        started.nudgeCalls(dueAt);
        if (webhooks) started.nudgeWebhooks();
      },
    });
    const messageWriter = new MessageWriter({
      store,
      // A SQLite batch in flight only waits for its WAL sync, which runs beside the others
      // (wal-sync.ts); a PostgreSQL batch holds a pooled connection for its round trip.
      ...(store.driver === 'sqlite' ? { maxInFlight: 6 } : {}),
      onCommitted: () => started.nudgeDispatcher(),
      handoff: { slots: started.handoffSlots, clock, leaseMs: DEFAULT_LEASE_MS, nodeId: config.nodeId, deliver: (messages) => started.handOff(messages) },
    });
    const calls = new CallsService({ store, clock, steps: callSteps, machine, nodeId: config.nodeId });
    const pinDelivery = new PinDelivery({ acceptor: new SmsAcceptor({ store, writer: messageWriter, metrics }), calls, log, now: () => clock.now() });
    const ctx: AppContext = {
      config,
      clock,
      store,
      metrics,
      log,
      authenticator: new Authenticator(store.keys, clock, config.authCacheMs),
      messageWriter,
      engine: started,
      inbound: new InboundService({ store, clock, metrics, log, subscriptions, onWebhooksQueued: () => started.nudgeWebhooks() }),
      subscriptions,
      calls,
      verify: new VerifyService({
        store,
        clock,
        delivery: pinDelivery,
        routes: config.routing!.routes,
        ...(config.pinKey === undefined ? {} : { pinKey: Buffer.from(config.pinKey, 'hex') }),
      }),
      changes: feed,
    };
    const app = await buildApp(ctx, {
      logger: log,
      isReady: () => ready,
      collectMetrics: metricsCollector(metrics, started),
      ...(options.consoleDir === undefined ? {} : { consoleDir: options.consoleDir }),
    });
    const address = await app.listen({ port: config.port, host: config.host });
    ready = true;
    let closing: Promise<void> | undefined;
    const close = (): Promise<void> =>
      (closing ??= (async () => {
        ready = false;
        await app.close();
        await ctx.messageWriter.flush();
        await started.stop();
        await relay?.stop();
        await store.close();
      })());
    return { app, ctx, url: address.replace('[::1]', '127.0.0.1'), close };
  } catch (error) {
    await engine?.stop().catch(() => undefined);
    await relay?.stop();
    await store.close().catch(() => undefined);
    throw error;
  }
}
