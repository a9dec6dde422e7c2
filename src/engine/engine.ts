import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { Logger } from '../logger.js';
import type { Config } from '../config.js';
import { repeatEvery, type Clock, type Timer } from '../core/clock.js';
import type { Metrics } from '../core/metrics.js';
import { WebhookSender } from '../core/outbox/webhook-sender.js';
import { Dispatcher } from '../core/pipeline/dispatcher.js';
import { HandoffSlots } from '../core/pipeline/handoff-slots.js';
import { RetentionSweeper } from '../core/pipeline/retention.js';
import { StatusRecorder } from '../core/pipeline/status-recorder.js';
import type { ClaimedMessage, Store } from '../core/store/types.js';
import { SubscriptionMatcher } from '../core/subscriptions/matcher.js';
import { SandboxNetwork } from '../network/sandbox/sandbox-network.js';
import { loadSandboxRules, type SandboxRule } from '../network/sandbox/rules.js';
import type { Carrier } from '../network/carrier.js';
import type { RcsInboundContent, RcsNetworkEvents } from '../network/rcs-network.js';
import type { HandsetSeen, HandsetWritten } from '../network/sandbox/sandbox-handset.js';
import { ChannelRouter } from '../network/routing/channel-router.js';
import { rcsEvents } from '../rcs/events/rcs-events.js';
import { smsFailoverFor } from '../rcs/failover.js';
import { sandboxOnlyRouting } from '../network/routing/routing-config.js';
import { SmppCarrier } from '../network/smpp/smpp-carrier.js';
import { registerSmppMetrics } from '../network/smpp/smpp-metrics.js';
import { InboundService } from '../sms/inbound/inbound-service.js';
import { renderDeliveryReport } from '../sms/wire/report-shapes.js';
import { CallEngine } from '../voice/call-engine.js';
import { CallMedia } from '../voice/call-media.js';
import { renderCallRecording } from '../voice/call-recording.js';
import { CallSteps } from '../voice/call-steps.js';
import { stopMp3Decoding } from '../voice/media/codecs/mp3-decoder.js';
import { SpeechSynthesizer } from '../voice/media/speech/speech-synthesizer.js';
import { callMachineContext, callsRetentionMs, voiceEventTargets } from '../voice/voice-setup.js';
import { voicePinReport } from '../verify/voice-pin-report.js';
import { NodeWatch } from './node-watch.js';

/**
 * What the HTTP side needs from the message engine. The engine runs either in the server's own
 * thread (`Engine` itself, used with an injected clock or SWITCHBOARD_ENGINE=inline) or in a worker
 * thread of its own (`ThreadEngine`), so HTTP and the pipeline each get a core.
 */
export interface EngineHandle {
  /** New messages were committed: dispatch now rather than at the next poll. */
  nudgeDispatcher(): void;
  /** Reserved by acceptance before it stores messages claimed for this engine's dispatcher. */
  readonly handoffSlots: HandoffSlots;
  /** Committed messages stored claimed for this engine's dispatcher (see MessageWriter's Handoff). */
  handOff(messages: ClaimedMessage[]): void;
  /** Webhook items were queued outside the engine (inbound injected over HTTP). */
  nudgeWebhooks(): void;
  /** An account's subscriptions changed. */
  invalidateSubscriptions(accountId: string): void;
  /** Call timers were stored (the earliest due at `dueAt`): run them then. */
  nudgeCalls(dueAt?: number): void;
  /** What the far end of a call heard, as WAV; undefined when the account has no such call. */
  callAudio(accountId: string, callId: string): Promise<Uint8Array | undefined>;
  sandboxRules(accountId: string): Promise<SandboxRule[]>;
  setSandboxRules(accountId: string, rules: SandboxRule[]): Promise<void>;
  /** A sandbox phone's user opens an RCS message (reported through the sandbox network's RCS events). */
  sandboxRcsSeen(accountId: string, messageId: string): Promise<HandsetSeen>;
  /** A sandbox phone's user writes to an RCS sender of the account's. */
  sandboxRcsInbound(accountId: string, from: string, to: string, content: RcsInboundContent): Promise<HandsetWritten>;
  /** The engine's metrics, for aggregation with the HTTP side's. */
  metrics(): Promise<Array<MetricObjectWithValues<MetricValue<string>>>>;
  /** Finishes in-flight work and stops. Does not close the store it was given. */
  stop(): Promise<void>;
}

export interface EngineDeps {
  config: Config;
  /** Receipts and inbound messages, which a carrier is told are stored, and everything else by default. */
  store: Store;
  /**
   * Writes the pipeline does again if a database crash loses them: claims, submits, phone entries,
   * webhook attempts, purges. On PostgreSQL the engine thread gives a pool whose commits do not wait
   * for the WAL flush (measured: about a fifth more throughput). Defaults to `store`.
   */
  pipelineStore?: Store;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  /** Shared with the thread that accepts messages; the engine makes its own when absent. */
  handoffSlots?: HandoffSlots;
}

/**
 * Messages that may wait in the dispatcher's memory after acceptance: many rounds' worth, well under
 * a second of work, far inside the lease they are stored with. Larger bounds measured no faster here
 * (a big request's rest is claimed from the store just as well) and keep more objects alive.
 */
export const HANDOFF_LIMIT = 1000;

/**
 * How long a submit to an SMSC waits for its final receipt before it is written on its own
 * (SubmitWriteBehind): long enough for the receipts of a network that reports at once, well inside
 * a claim's lease (DEFAULT_LEASE_MS). Not for the sandbox, whose receipts are reissued after a
 * restart from what is stored as submitted.
 */
export const SUBMIT_WRITE_BEHIND_MS = 500;

const INBOUND_PART_SWEEP_MS = 60_000;


/**
 * The pipeline behind the API: dispatcher, carrier network, status recorder, webhook sender and
 * retention, composed once. Nothing here knows HTTP.
 */
export class Engine implements EngineHandle {
  readonly subscriptions: SubscriptionMatcher;
  readonly webhookSender: WebhookSender;
  readonly statusRecorder: StatusRecorder;
  readonly inbound: InboundService;
  readonly sandbox: SandboxNetwork;
  readonly dispatcher: Dispatcher;
  /** The sandbox and every configured SMSC, routed or not; started and stopped with the engine. */
  readonly carriers: Carrier[];
  readonly handoffSlots: HandoffSlots;
  readonly calls: CallEngine;
  readonly callMedia: CallMedia;
  readonly nodeWatch: NodeWatch;
  private readonly speech = new SpeechSynthesizer();
  private readonly retention: RetentionSweeper;
  private inboundPartExpiry: Timer | undefined;
  private inboundPartSweep: Promise<void> | undefined;

  private constructor(private readonly deps: EngineDeps, rules: SandboxRule[]) {
    const { config, store, clock, log, metrics } = deps;
    const pipelineStore = deps.pipelineStore ?? store;
    this.handoffSlots = deps.handoffSlots ?? new HandoffSlots(HANDOFF_LIMIT);
    this.subscriptions = new SubscriptionMatcher({ store, clock });
    this.webhookSender = new WebhookSender({
      store: pipelineStore,
      clock,
      metrics,
      log,
      retryMs: config.webhookRetryMs,
      maxAttempts: config.webhookMaxAttempts,
      timeoutMs: config.webhookTimeoutMs,
      nodeId: config.nodeId,
    });
    const onWebhooksQueued = (): void => this.webhookSender.nudge();
    // Small write batches keep SQLite's single write lock free for acceptance; PostgreSQL has no
    // such lock, and there each batch is a round trip, so larger ones go further.
    const postgres = store.driver === 'postgres';
    this.statusRecorder = new StatusRecorder({
      store,
      clock,
      metrics,
      log,
      subscriptions: this.subscriptions,
      renderReport: renderDeliveryReport,
      onWebhooksQueued,
      failoverFor: smsFailoverFor,
      onMessagesQueued: () => this.dispatcher.nudge(),
      ...(postgres ? { maxBatch: 300 } : {}),
      submitWriteBehind: { delayMs: SUBMIT_WRITE_BEHIND_MS, carriers: (carrier) => carrier !== this.sandbox.name, nodeId: config.nodeId },
    });
    this.inbound = new InboundService({ store, clock, metrics, log, subscriptions: this.subscriptions, onWebhooksQueued });
    this.sandbox = new SandboxNetwork({ store: pipelineStore, clock, log, latencyMs: config.sandboxLatencyMs, rules });
    const routing = config.routing ?? sandboxOnlyRouting();
    const byName = new Map<string, Carrier>([[this.sandbox.name, this.sandbox]]);
    const smscs: SmppCarrier[] = [];
    for (const options of routing.smscs) {
      const carrier = new SmppCarrier({
        options,
        clock,
        log,
        resolveAccount: async (name) => (await store.accounts.ensure(name, clock.now())).id,
      });
      smscs.push(carrier);
      byName.set(carrier.name, carrier);
    }
    if (smscs.length > 0) registerSmppMetrics(metrics.registry, smscs);
    const router = new ChannelRouter(routing.routes, byName);
    this.carriers = router.carriers();
    this.dispatcher = new Dispatcher({
      store: pipelineStore,
      clock,
      router,
      recorder: this.statusRecorder,
      metrics,
      log,
      handoffSlots: this.handoffSlots,
      nodeId: config.nodeId,
    });
    this.retention = new RetentionSweeper({ store: pipelineStore, clock, log, retentionMs: config.retentionMs, callsRetentionMs: callsRetentionMs(config) });
    this.callMedia = new CallMedia({ store, clock, speech: this.speech, keepUrlAudioMs: callsRetentionMs(config) });
    const steps = new CallSteps({
      store: pipelineStore,
      clock,
      machine: callMachineContext(config),
      apiBaseUrl: config.publicUrl,
      eventTargets: voiceEventTargets(this.subscriptions),
      scriptReport: voicePinReport,
      onScheduled: (dueAt, webhooks) => {
        this.calls.nudge(dueAt);
        if (webhooks) this.webhookSender.nudge();
      },
    });
    this.calls = new CallEngine({ store: pipelineStore, clock, log, steps, media: this.callMedia });
    this.nodeWatch = new NodeWatch({
      store: pipelineStore,
      clock,
      log,
      nodeId: config.nodeId,
      heartbeatMs: config.nodeHeartbeatMs,
      timeoutMs: config.nodeTimeoutMs,
      shared: postgres,
      takeOver: (nodeIds, silentBefore) => this.takeOver(nodeIds, silentBefore),
    });
  }

  static async start(deps: EngineDeps): Promise<Engine> {
    const rules = deps.config.sandboxRulesFile ? await loadSandboxRules(deps.config.sandboxRulesFile) : [];
    const engine = new Engine(deps, rules);
    // Every carrier gets the RCS events too: those that carry RCS report their users' through them.
    const events: RcsNetworkEvents = {
      receipts: async (carrier, receipts) => {
        if (!(await engine.statusRecorder.recordReceipts(carrier, receipts))) throw new Error('receipts could not be stored');
        // A network does not send an acknowledged receipt again. The sandbox's own receipts need
        // no sync: after a restart it reissues those of every message still submitted.
        if (carrier !== engine.sandbox.name) await deps.store.flushToDisk();
      },
      // Failures are logged by the service; the network delivers again what was not acknowledged.
      // The store syncs an inbound message before this resolves.
      inbound: async (messages) => void (await engine.inbound.receive(messages)),
      inboundPart: (part) => engine.inbound.receivePart(part),
      rcs: rcsEvents({
        store: deps.store,
        clock: deps.clock,
        metrics: deps.metrics,
        subscriptions: engine.subscriptions,
        nudgeWebhooks: () => engine.webhookSender.nudge(),
      }),
    };
    for (const carrier of engine.carriers) await carrier.start(events);
    // Before the dispatcher claims anything of its own, and before acceptance hands it anything.
    await engine.nodeWatch.takeOverPreviousRun();
    engine.startInboundPartExpiry();
    await engine.dispatcher.start();
    await engine.calls.start();
    engine.webhookSender.start();
    engine.retention.start();
    await engine.nodeWatch.start();
    return engine;
  }

  /**
   * What stopped nodes held, carried on here: their claimed messages go back to the queue, their
   * submitted messages' receipts are awaited here (the sandbox issues them again), their webhook
   * items are freed, and their live calls end (their media is gone).
   */
  private async takeOver(nodeIds: string[], silentBefore: number): Promise<void> {
    await this.dispatcher.takeOver(nodeIds, silentBefore);
    await this.webhookSender.takeOver(nodeIds, silentBefore);
    await this.calls.endCallsOf(nodeIds, silentBefore);
  }

  /**
   * Only SMSCs send the parts of concatenated messages: with one configured, every minute what
   * arrived of sets left incomplete for too long is stored as the message (by whichever node looks).
   */
  private startInboundPartExpiry(): void {
    if (!this.carriers.some((carrier) => carrier instanceof SmppCarrier)) return;
    this.inboundPartExpiry = repeatEvery(this.deps.clock, INBOUND_PART_SWEEP_MS, () => {
      this.inboundPartSweep ??= this.inbound
        .expireParts()
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'expiring inbound parts failed'))
        .finally(() => (this.inboundPartSweep = undefined));
    });
  }

  nudgeDispatcher(): void {
    this.dispatcher.nudge();
  }

  handOff(messages: ClaimedMessage[]): void {
    this.dispatcher.handOff(messages);
  }

  nudgeWebhooks(): void {
    this.webhookSender.nudge();
  }

  invalidateSubscriptions(accountId: string): void {
    this.subscriptions.invalidate(accountId);
  }

  nudgeCalls(dueAt?: number): void {
    this.calls.nudge(dueAt);
  }

  async callAudio(accountId: string, callId: string): Promise<Uint8Array | undefined> {
    const call = await this.deps.store.calls.get(accountId, callId);
    if (!call) return undefined;
    const timeline = await this.deps.store.calls.timeline(accountId, callId);
    return renderCallRecording(call, timeline, this.callMedia);
  }

  async sandboxRules(accountId: string): Promise<SandboxRule[]> {
    return this.sandbox.rulesFor(accountId);
  }

  async setSandboxRules(accountId: string, rules: SandboxRule[]): Promise<void> {
    this.sandbox.setRules(accountId, rules);
  }

  sandboxRcsSeen(accountId: string, messageId: string): Promise<HandsetSeen> {
    return this.sandbox.handset.see(accountId, messageId);
  }

  sandboxRcsInbound(accountId: string, from: string, to: string, content: RcsInboundContent): Promise<HandsetWritten> {
    return this.sandbox.handset.write(accountId, from, to, content);
  }

  metrics(): Promise<Array<MetricObjectWithValues<MetricValue<string>>>> {
    return this.deps.metrics.registry.getMetricsAsJSON();
  }

  async stop(): Promise<void> {
    this.inboundPartExpiry?.cancel();
    await this.inboundPartSweep;
    await this.dispatcher.stop();
    await Promise.all(this.carriers.map((carrier) => carrier.stop()));
    await this.statusRecorder.idle();
    // Those it cannot write (it logs why) stay claimed: submitted again once this node is taken over.
    await this.statusRecorder.writeHeldSubmits();
    await this.calls.stop();
    await this.webhookSender.stop();
    await this.retention.stop();
    // Last: once marked stopped, the others take over what is left (receipts still awaited here).
    await this.nodeWatch.stop();
    await this.speech.close();
    await stopMp3Decoding();
  }
}
