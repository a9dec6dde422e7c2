import type { Logger } from '../logger.js';
import type { Clock, Timer } from '../core/clock.js';
import { IDLE_MS } from '../core/idle.js';
import type { CallTimer, MediaAction, Store } from '../core/store/types.js';
import { yieldToEventLoop } from '../core/yield.js';
import type { CallSteps } from './call-steps.js';
import { MEDIA_PREPARE } from './machine/media-queue.js';

/** Prepares an action's audio: what it lasts and where its audio can be found again. */
export interface MediaPreparer {
  prepare(accountId: string, action: MediaAction): Promise<{ audioMs: number; audioRef: string }>;
}

/** A reason an action's audio could not be prepared, fit for the ERROR event's `errorDetails`. */
export class MediaUnavailable extends Error {}

export interface CallEngineDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  steps: CallSteps;
  media: MediaPreparer;
  /** Timers claimed at once (default 200). */
  batchSize?: number;
  /** Calls whose timers run side by side (default 16): steps wait on the store, and on PostgreSQL several travel at once. */
  concurrency?: number;
  /** How long a claimed timer is this node's before another may take it (default 30 s: preparing media fits). */
  leaseMs?: number;
  /**
   * Look for due timers at least this often even when nobody nudged (default IDLE_MS): an idle
   * engine sleeps until the next timer it knows of; this bounds how late it sees timers another
   * node stored.
   */
  pollMs?: number;
}

/**
 * The engine side of calls: runs due call timers (network events of the simulated network, connect
 * timeouts, media ends, captures) and prepares media, each step through CallSteps, so any node can
 * carry any call on. Timers of one call run in order, calls side by side. It also ends the live
 * calls of nodes that stopped (`endCallsOf`, called by the node watch for dead nodes and at start
 * for this node's previous run), since a call's media dies with the node that carried it.
 */
export class CallEngine {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private nudged = false;
  private wakeTimer?: Timer;
  private wakeAt = Infinity;
  private readonly inFlight = new Set<Promise<void>>();
  private claiming: Promise<number> = Promise.resolve(0);
  /** Claimed timers not yet run, per call, in due order; and the calls that have some and no worker. */
  private readonly waiting = new Map<number, CallTimer[]>();
  private readonly ready: number[] = [];
  private workers = 0;

  constructor(private readonly deps: CallEngineDeps) {}

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Timers were stored: look now, or when the earliest is due. */
  nudge(dueAt?: number): void {
    const now = this.deps.clock.now();
    if (dueAt === undefined || dueAt <= now) {
      this.nudged = true;
      this.wake?.();
      return;
    }
    if (dueAt >= this.wakeAt) return;
    this.wakeTimer?.cancel();
    this.wakeAt = dueAt;
    this.wakeTimer = this.deps.clock.setTimer(dueAt - now, () => {
      this.wakeAt = Infinity;
      this.nudge();
    });
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wakeTimer?.cancel();
    this.wake?.();
    await this.loop;
    await Promise.all(this.inFlight);
  }

  /**
   * Runs every timer due now, and those their steps make due now, until none is left; for tests
   * that drive a ManualClock. Returns how many ran.
   */
  async runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      await Promise.all(this.inFlight);
      const claimed = await this.claim();
      total += claimed;
      if (claimed === 0 && this.inFlight.size === 0) return total;
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      // Claim no further ahead than a batch: what waits here holds a lease it must not outlive.
      while (this.backlog() >= (this.deps.batchSize ?? 200) && this.inFlight.size > 0) await Promise.race(this.inFlight);
      let claimed = 0;
      try {
        claimed = await this.claim();
      } catch (error) {
        this.deps.log.error({ err: error }, 'call timers could not be claimed');
      }
      if (claimed > 0) {
        await yieldToEventLoop();
        continue;
      }
      await this.idle();
    }
  }

  private async idle(): Promise<void> {
    if (this.nudged) {
      this.nudged = false;
      return;
    }
    const next = await this.deps.store.calls.nextTimerDue(this.deps.clock.now()).catch(() => undefined);
    if (next !== undefined) this.nudge(next);
    if (this.nudged || !this.running) {
      this.nudged = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const poll = this.deps.clock.setTimer(this.deps.pollMs ?? IDLE_MS, () => resolve());
      this.wake = () => {
        poll.cancel();
        resolve();
      };
    });
    this.wake = undefined;
    this.nudged = false;
  }

  /**
   * Claims due timers and starts running them, one chain per call; returns how many were claimed.
   * Claims are made one at a time, so that a claim never misses a call another claim of this node
   * holds locked.
   */
  private claim(): Promise<number> {
    const next = this.claiming.then(() => this.claimOnce());
    this.claiming = next.catch(() => 0);
    return next;
  }

  private async claimOnce(): Promise<number> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const timers = await store.calls.claimDueTimers(now, this.deps.batchSize ?? 200, now + (this.deps.leaseMs ?? 30_000));
    for (const timer of timers) {
      const waiting = this.waiting.get(timer.callPk);
      if (waiting) waiting.push(timer);
      else {
        this.waiting.set(timer.callPk, [timer]);
        this.ready.push(timer.callPk);
      }
    }
    while (this.workers < (this.deps.concurrency ?? 16) && this.ready.length > 0) {
      this.workers++;
      const working: Promise<void> = this.work().finally(() => {
        this.workers--;
        this.inFlight.delete(working);
      });
      this.inFlight.add(working);
    }
    return timers.length;
  }

  /**
   * Runs the timers of one call after the other, and calls side by side (one per worker): a call's
   * timers claimed while it runs join its list, so they never overtake each other. Each step yields
   * to the event loop: SQLite steps complete synchronously, and hundreds of them chained by awaits
   * alone would keep webhooks, sockets and timers waiting until all were done.
   */
  private backlog(): number {
    let count = 0;
    for (const timers of this.waiting.values()) count += timers.length;
    return count;
  }

  private async work(): Promise<void> {
    for (let callPk = this.ready.shift(); callPk !== undefined; callPk = this.ready.shift()) {
      const timers = this.waiting.get(callPk)!;
      for (let timer = timers.shift(); timer; timer = timers.shift()) {
        try {
          await this.runTimer(timer);
        } catch (error) {
          // Its lease runs out and it is claimed again.
          this.deps.log.error({ err: error, callId: timer.callId, kind: timer.kind }, 'call timer failed');
        }
        await yieldToEventLoop();
      }
      this.waiting.delete(callPk);
    }
  }

  private async runTimer(timer: CallTimer): Promise<void> {
    const { steps } = this.deps;
    if (timer.kind !== MEDIA_PREPARE) {
      await steps.apply(timer.accountId, timer.callId, { kind: 'timer', timer });
      return;
    }
    const actionId = Number(timer.data?.actionId);
    const call = await this.deps.store.calls.get(timer.accountId, timer.callId);
    const action = call?.media.queue.find((a) => a.id === actionId && a.state === 'preparing');
    if (!action) {
      await steps.apply(timer.accountId, timer.callId, { kind: 'media-failed', actionId, reason: 'gone', timerId: timer.id });
      return;
    }
    try {
      const prepared = await this.deps.media.prepare(timer.accountId, action);
      await steps.apply(timer.accountId, timer.callId, { kind: 'media-ready', actionId, ...prepared, timerId: timer.id });
    } catch (error) {
      if (!(error instanceof MediaUnavailable)) throw error;
      await steps.apply(timer.accountId, timer.callId, { kind: 'media-failed', actionId, reason: error.message, timerId: timer.id });
    }
  }

  /** Ends the live calls the given nodes carried (they stopped, and their media with them). */
  async endCallsOf(nodeIds: string[], silentBefore: number): Promise<void> {
    const { store, steps, log } = this.deps;
    for (;;) {
      const calls = await store.calls.listLiveOnNodes(nodeIds, 100, silentBefore);
      if (calls.length === 0) break;
      for (const call of calls) await steps.apply(call.accountId, call.callId, { kind: 'platform-lost' });
      log.warn({ nodes: nodeIds, calls: calls.length }, 'live calls of a node that stopped were ended');
    }
  }
}
