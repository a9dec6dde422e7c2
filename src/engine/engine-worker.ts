import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../core/clock.js';
import { Metrics } from '../core/metrics.js';
import { HandoffSlots } from '../core/pipeline/handoff-slots.js';
import { openStore } from '../core/store/open-store.js';
import { ChangeCollector } from '../console/changes/change-collector.js';
import { ListenerFlag } from '../console/changes/listener-flag.js';
import { publishingStore } from '../console/changes/publishing-store.js';
import type { ClaimedMessage } from '../core/store/types.js';
import type { RcsInboundContent } from '../network/rcs-network.js';
import type { SandboxRule } from '../network/sandbox/rules.js';
import { createLogger } from '../logger.js';
import { Engine, HANDOFF_LIMIT } from './engine.js';
import type { EngineWorkerData, FromEngine, ToEngine } from './engine-protocol.js';

/**
 * The engine's own thread: its own store connection, logger and metrics (aggregated by the server
 * thread's /metrics). It stops when told to, or when the server thread goes away.
 */
if (!parentPort) throw new Error('engine-worker must run in a worker thread');
const port = parentPort;
const { config, handoffBuffer, listenerBuffer } = workerData as EngineWorkerData;
const send = (message: FromEngine): void => port.postMessage(message);
/** How long the engine's changes gather before they cross to the HTTP thread. */
const ENGINE_GATHER_MS = 50;

async function main(): Promise<void> {
  const log = createLogger(config).child({ thread: 'engine' });
  const options = { url: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema, role: 'engine' as const };
  // On PostgreSQL, a small durable pool for receipts, inbound messages and subscription reads, and
  // the pipeline's own writes through a second pool that does not wait for the WAL flush (see
  // EngineDeps.pipelineStore). SQLite's engine connection is one writer; a second would contend.
  // What the engine's writes change goes to the HTTP thread's live feed, gathered briefly, and only
  // while a console listens (the flag both threads share).
  const changes = new ChangeCollector({
    flag: new ListenerFlag(listenerBuffer),
    delayMs: ENGINE_GATHER_MS,
    sink: (batch) => send({ type: 'changes', batch }),
  });
  const store = publishingStore(await openStore({ ...options, poolSize: 4 }), changes);
  const pipelineStore = store.driver === 'postgres' ? publishingStore(await openStore({ ...options, durableCommits: false }), changes) : store;
  const engine = await Engine.start({
    config,
    store,
    pipelineStore,
    clock: systemClock,
    log,
    metrics: new Metrics({ defaultMetrics: false }),
    handoffSlots: new HandoffSlots(HANDOFF_LIMIT, handoffBuffer),
  });

  const calls = {
    sandboxRules: (accountId: string) => engine.sandboxRules(accountId),
    setSandboxRules: (accountId: string, rules: SandboxRule[]) => engine.setSandboxRules(accountId, rules),
    sandboxRcsSeen: (accountId: string, messageId: string) => engine.sandboxRcsSeen(accountId, messageId),
    sandboxRcsInbound: (accountId: string, from: string, to: string, content: RcsInboundContent) => engine.sandboxRcsInbound(accountId, from, to, content),
    metrics: () => engine.metrics(),
    callAudio: (accountId: string, callId: string) => engine.callAudio(accountId, callId),
    stop: async () => {
      await engine.stop();
      changes.flush();
      if (pipelineStore !== store) await pipelineStore.close();
      await store.close();
    },
  };

  port.on('message', (message: ToEngine) => {
    if (message.type === 'handoff') {
      engine.handOff(JSON.parse(message.messages) as ClaimedMessage[]);
    } else if (message.type === 'nudge') {
      if (message.target === 'dispatcher') engine.nudgeDispatcher();
      else if (message.target === 'calls') engine.nudgeCalls(message.dueAt);
      else engine.nudgeWebhooks();
    } else if (message.type === 'invalidate') {
      engine.invalidateSubscriptions(message.accountId);
    } else {
      const call = calls[message.method] as (...args: unknown[]) => Promise<unknown>;
      call(...message.args).then(
        (value) => send({ type: 'result', id: message.id, value }),
        (error: unknown) => send({ type: 'error', id: message.id, message: error instanceof Error ? error.message : String(error) }),
      );
    }
  });
  send({ type: 'ready' });
}

main().catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
