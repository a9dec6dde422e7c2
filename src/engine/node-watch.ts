import type { Logger } from '../logger.js';
import { repeatEvery, type Clock, type Timer } from '../core/clock.js';
import type { Store } from '../core/store/types.js';

export interface NodeWatchDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  nodeId: string;
  /** How often this node beats and looks for nodes that stopped. */
  heartbeatMs: number;
  /** A node silent this long has stopped: its work is taken over at the next look. */
  timeoutMs: number;
  /**
   * Whether other processes may share the store (PostgreSQL). A store only this process serves
   * (a SQLite file) has no one to beat for: every other node it knows is an earlier run, taken over
   * at start, and nothing is written afterwards.
   */
  shared: boolean;
  /**
   * Takes over the work of stopped nodes: only what they still hold and have not beaten since
   * `silentBefore` (a node that came back keeps its own).
   */
  takeOver(nodeIds: string[], silentBefore: number): Promise<void>;
}

/**
 * Makes this node known to the others sharing the store and takes over the work of those that stop.
 * Every `heartbeatMs` it beats (a row of `nodes`) and looks for nodes whose last beat is older than
 * `timeoutMs`; their work is taken over and they are forgotten. So a node that dies is taken over
 * within timeoutMs + heartbeatMs of its last beat, by whichever survivor looks first (each piece of
 * work goes to one). A node that stops cleanly marks itself silent at once, so the others take over
 * at their next beat. A node starting under the id of a previous run takes that run's work over
 * before it beats. On a store no other process shares, every earlier run is taken over at start.
 */
export class NodeWatch {
  private heartbeat?: Timer;
  /** The looks in turn (a look never rejects), and whether one waits for its turn. */
  private looking: Promise<void> = Promise.resolve();
  private waiting = false;

  constructor(private readonly deps: NodeWatchDeps) {}

  /** What this node's previous run (the same id) left claimed is taken over, before the first beat. */
  takeOverPreviousRun(): Promise<void> {
    return this.deps.takeOver([this.deps.nodeId], this.deps.clock.now());
  }

  /** Beats and looks now, then every heartbeatMs (on a shared store). */
  async start(): Promise<void> {
    if (!this.deps.shared) {
      await this.look(Number.POSITIVE_INFINITY);
      return;
    }
    await this.beatAndLook();
    this.heartbeat = repeatEvery(this.deps.clock, this.deps.heartbeatMs, () => void this.beatAndLook());
  }

  /**
   * Beats and takes over stopped nodes, after the look in progress if any: one at a time, and at most
   * one waiting, which reads the clock when its turn comes.
   */
  beatAndLook(): Promise<void> {
    if (!this.waiting) {
      this.waiting = true;
      this.looking = this.looking.then(() => {
        this.waiting = false;
        return this.look(this.deps.timeoutMs);
      });
    }
    return this.looking;
  }

  /** Stops beating and marks this node silent, so that the others take over what it leaves. */
  async stop(): Promise<void> {
    this.heartbeat?.cancel();
    this.heartbeat = undefined;
    await this.looking;
    await this.deps.store.nodes.leave(this.deps.nodeId).catch((error: unknown) => {
      this.deps.log.warn({ err: error }, 'could not mark this node stopped; the others take over once it is silent');
    });
  }

  /** Beats, then takes over the nodes silent for `timeoutMs` (all others, when infinite). */
  private async look(timeoutMs: number): Promise<void> {
    const { store, clock, log, nodeId } = this.deps;
    try {
      const now = clock.now();
      await store.nodes.beat(nodeId, now);
      const silentBefore = timeoutMs === Number.POSITIVE_INFINITY ? now + 1 : now - timeoutMs;
      const stopped = (await store.nodes.listSilentSince(silentBefore)).filter((id) => id !== nodeId);
      if (stopped.length === 0) return;
      log.warn({ nodes: stopped }, 'taking over the work of stopped nodes');
      await this.deps.takeOver(stopped, silentBefore);
      // Last: a take-over cut short is done again at the next look, by this node or another.
      await store.nodes.forget(stopped, silentBefore);
    } catch (error) {
      log.warn({ err: error }, 'node heartbeat or take-over failed');
    }
  }
}
