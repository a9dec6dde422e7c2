import { Worker } from 'node:worker_threads';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { HandoffSlots } from '../core/pipeline/handoff-slots.js';
import type { ClaimedMessage } from '../core/store/types.js';
import type { RcsInboundContent } from '../network/rcs-network.js';
import type { HandsetSeen, HandsetWritten } from '../network/sandbox/sandbox-handset.js';
import type { ChangeBatch } from '../console/changes/change-set.js';
import type { SandboxRule } from '../network/sandbox/rules.js';
import { HANDOFF_LIMIT, type EngineHandle } from './engine.js';
import type { EngineWorkerData, FromEngine, ToEngine } from './engine-protocol.js';

type CallMethod = Extract<ToEngine, { type: 'call' }>['method'];

/** The engine in a worker thread, seen from the server thread. */
export class ThreadEngine implements EngineHandle {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private stopping = false;
  private dead = false;

  private constructor(
    private readonly worker: Worker,
    private readonly log: Logger,
    readonly handoffSlots: HandoffSlots,
  ) {}

  /**
   * Starts the worker and resolves once its engine runs. `onCrash` is called if it dies later. The
   * engine reports what its writes change to `feed.onChanges` while `feed.listenerBuffer`'s flag is set.
   */
  static start(
    config: Config,
    log: Logger,
    onCrash: (error: Error) => void,
    feed: { listenerBuffer: SharedArrayBuffer; onChanges: (batch: ChangeBatch) => void },
  ): Promise<ThreadEngine> {
    const handoffSlots = new HandoffSlots(HANDOFF_LIMIT);
    const data: EngineWorkerData = { config, handoffBuffer: handoffSlots.buffer, listenerBuffer: feed.listenerBuffer };
    const worker = new Worker(new URL('./engine-worker.js', import.meta.url), {
      workerData: data,
      // A smaller young generation: the engine makes short-lived batch objects at a high rate, and
      // the default lets each isolate hold tens of megabytes of them between scavenges.
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
    });
    const engine = new ThreadEngine(worker, log, handoffSlots);
    return new Promise((resolve, reject) => {
      let started = false;
      worker.on('message', (message: FromEngine) => {
        if (message.type === 'ready') {
          started = true;
          resolve(engine);
        } else if (message.type === 'failed') {
          reject(new Error(message.message));
        } else if (message.type === 'changes') {
          feed.onChanges(message.batch);
        } else {
          engine.settle(message);
        }
      });
      worker.on('error', (error) => {
        if (!started) reject(error);
        else engine.crashed(error, onCrash);
      });
      worker.on('exit', (code) => {
        if (!started) reject(new Error(`engine thread exited with code ${code}`));
        else if (!engine.stopping) engine.crashed(new Error(`engine thread exited with code ${code}`), onCrash);
      });
    });
  }

  nudgeDispatcher(): void {
    this.post({ type: 'nudge', target: 'dispatcher' });
  }

  nudgeWebhooks(): void {
    this.post({ type: 'nudge', target: 'webhooks' });
  }

  handOff(messages: ClaimedMessage[]): void {
    // The caller frees the slots of messages that were not taken; their lease brings them back.
    if (this.stopping || this.dead) throw new Error('the engine thread is not running');
    this.worker.postMessage({ type: 'handoff', messages: JSON.stringify(messages) } satisfies ToEngine);
  }

  nudgeCalls(dueAt?: number): void {
    this.post(dueAt === undefined ? { type: 'nudge', target: 'calls' } : { type: 'nudge', target: 'calls', dueAt });
  }

  callAudio(accountId: string, callId: string): Promise<Uint8Array | undefined> {
    return this.call('callAudio', [accountId, callId]) as Promise<Uint8Array | undefined>;
  }

  invalidateSubscriptions(accountId: string): void {
    this.post({ type: 'invalidate', accountId });
  }

  sandboxRules(accountId: string): Promise<SandboxRule[]> {
    return this.call('sandboxRules', [accountId]) as Promise<SandboxRule[]>;
  }

  async setSandboxRules(accountId: string, rules: SandboxRule[]): Promise<void> {
    await this.call('setSandboxRules', [accountId, rules]);
  }

  sandboxRcsSeen(accountId: string, messageId: string): Promise<HandsetSeen> {
    return this.call('sandboxRcsSeen', [accountId, messageId]) as Promise<HandsetSeen>;
  }

  sandboxRcsInbound(accountId: string, from: string, to: string, content: RcsInboundContent): Promise<HandsetWritten> {
    return this.call('sandboxRcsInbound', [accountId, from, to, content]) as Promise<HandsetWritten>;
  }

  metrics(): Promise<Array<MetricObjectWithValues<MetricValue<string>>>> {
    return this.call('metrics', []) as Promise<Array<MetricObjectWithValues<MetricValue<string>>>>;
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    try {
      await this.call('stop', []);
    } finally {
      await this.worker.terminate();
    }
  }

  private post(message: ToEngine): void {
    if (!this.stopping) this.worker.postMessage(message);
  }

  private call(method: CallMethod, args: unknown[]): Promise<unknown> {
    if (this.dead) return Promise.reject(new Error('the engine thread is not running'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'call', id, method, args } satisfies ToEngine);
    });
  }

  private settle(message: Extract<FromEngine, { type: 'result' | 'error' }>): void {
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.type === 'result') waiting.resolve(message.value);
    else waiting.reject(new Error(message.message));
  }

  private crashed(error: Error, onCrash: (error: Error) => void): void {
    // 'error' is followed by 'exit'; one report is enough.
    if (this.dead) return;
    this.dead = true;
    this.log.fatal({ err: error }, 'engine thread died');
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
    onCrash(error);
  }
}
