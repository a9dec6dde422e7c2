import { pino } from 'pino';
import type { Logger } from '../../../src/logger.js';
import type { ManualClock } from '../../../src/core/clock.js';
import { Metrics } from '../../../src/core/metrics.js';
import { Dispatcher, type DispatcherDeps } from '../../../src/core/pipeline/dispatcher.js';
import { StatusRecorder } from '../../../src/core/pipeline/status-recorder.js';
import type { StatusRef, Store, StoredMessage } from '../../../src/core/store/types.js';
import { SubscriptionMatcher } from '../../../src/core/subscriptions/matcher.js';
import type { SandboxRule } from '../../../src/network/sandbox/rules.js';
import { SandboxNetwork } from '../../../src/network/sandbox/sandbox-network.js';
import { ChannelRouter } from '../../../src/network/routing/channel-router.js';
import { sandboxOnlyRouting } from '../../../src/network/routing/routing-config.js';
import { rcsEvents } from '../../../src/rcs/events/rcs-events.js';
import { smsFailoverFor } from '../../../src/rcs/failover.js';
import { renderDeliveryReport } from '../../../src/sms/wire/report-shapes.js';
import { eventually } from '../../helpers/server.js';

export { eventually };

export const silentLogger = (): Logger => pino({ level: 'silent' });

/** A logger keeping every line at `level` and above, parsed. */
export function capturingLogger(level = 'warn'): { log: Logger; lines: Array<{ level: number; msg: string }> } {
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

export interface Pipeline {
  recorder: StatusRecorder;
  sandbox: SandboxNetwork;
  dispatcher: Dispatcher;
  metrics: Metrics;
  /** How often the recorder reported queued webhook items. */
  webhookNudges(): number;
  stop(): Promise<void>;
}

export interface PipelineOptions {
  latencyMs?: number;
  rules?: SandboxRule[];
  log?: Logger;
  dispatcher?: Partial<Pick<DispatcherDeps, 'batchSize' | 'pollMs' | 'idleMs' | 'leaseMs' | 'sweepMs' | 'errorDelayMs' | 'backoffMs' | 'handoffSlots' | 'nodeId'>>;
}

/** The real recorder, sandbox and dispatcher wired as the server wires them, started. */
export async function startPipeline(store: Store, clock: ManualClock, options: PipelineOptions = {}): Promise<Pipeline> {
  const log = options.log ?? silentLogger();
  const metrics = new Metrics({ defaultMetrics: false });
  let nudges = 0;
  let dispatcher: Dispatcher | undefined;
  const subscriptions = new SubscriptionMatcher({ store, clock, cacheMs: 0 });
  const recorder = new StatusRecorder({
    store,
    clock,
    metrics,
    log,
    subscriptions,
    renderReport: renderDeliveryReport,
    onWebhooksQueued: () => void nudges++,
    failoverFor: smsFailoverFor,
    onMessagesQueued: () => dispatcher?.nudge(),
    retryDelaysMs: [],
  });
  const sandbox = new SandboxNetwork({ store, clock, log, latencyMs: options.latencyMs ?? 0, rules: options.rules ?? [], tickMs: 5 });
  dispatcher = new Dispatcher({
    store,
    clock,
    router: new ChannelRouter(sandboxOnlyRouting().routes, new Map([[sandbox.name, sandbox]])),
    recorder,
    metrics,
    log,
    pollMs: 10,
    ...options.dispatcher,
  });
  await sandbox.start({
    receipts: async (carrier, receipts) => void (await recorder.recordReceipts(carrier, receipts)),
    inbound: async () => {},
    inboundPart: async () => {},
    rcs: rcsEvents({ store, clock, metrics, subscriptions, nudgeWebhooks: () => void nudges++ }),
  });
  await dispatcher.start();
  return {
    recorder,
    sandbox,
    dispatcher,
    metrics,
    webhookNudges: () => nudges,
    async stop() {
      await dispatcher.stop();
      await sandbox.stop();
      await recorder.idle();
    },
  };
}

/** Waits until the message is final and returns it. */
export function finalMessage(store: Store, accountId: string, messageId: string, timeoutMs = 5000): Promise<StoredMessage> {
  return eventually(async () => {
    const message = await store.messages.get(accountId, messageId);
    return message?.state === 'final' ? message : undefined;
  }, timeoutMs);
}

/** Waits until the message reaches `state`. */
export function messageInState(store: Store, accountId: string, messageId: string, state: StoredMessage['state']): Promise<StoredMessage> {
  return eventually(async () => {
    const message = await store.messages.get(accountId, messageId);
    return message?.state === state ? message : undefined;
  });
}

/** Lets the loops run for a while of real time (to show that something does NOT happen). */
export const settle = (ms = 80): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const statusOf = (message: StoredMessage): StatusRef => ({ groupId: message.status.groupId, id: message.status.id });

/** A pipeline per test on the suite's store, for the account `acme`; pass `stop` to t.after. */
export class PipelinePerTest {
  accountId = '';
  private pipeline: Pipeline | undefined;

  constructor(private readonly store: () => Store) {}

  readonly start = async (clock: ManualClock, options: PipelineOptions = {}): Promise<Pipeline> => {
    this.accountId = (await this.store().accounts.ensure('acme', clock.now())).id;
    this.pipeline = await startPipeline(this.store(), clock, options);
    return this.pipeline;
  };

  readonly stop = async (): Promise<void> => {
    await this.pipeline?.stop();
    this.pipeline = undefined;
  };
}
