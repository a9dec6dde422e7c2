import type { ChangeBatch } from '../console/changes/change-set.js';
import type { Config } from '../config.js';

/** Messages between the server thread and the engine worker. */
export type ToEngine =
  | { type: 'nudge'; target: 'dispatcher' | 'webhooks' }
  | { type: 'nudge'; target: 'calls'; dueAt?: number }
  /** The handed-over ClaimedMessage[] as JSON text: cheaper to copy between threads than the objects' clone. */
  | { type: 'handoff'; messages: string }
  | { type: 'invalidate'; accountId: string }
  | { type: 'call'; id: number; method: 'sandboxRules' | 'setSandboxRules' | 'sandboxRcsSeen' | 'sandboxRcsInbound' | 'metrics' | 'callAudio' | 'stop'; args: unknown[] };

export type FromEngine =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; value: unknown }
  /** What the engine's writes changed, for the live feed (sent only while someone listens). */
  | { type: 'changes'; batch: ChangeBatch }
  | { type: 'error'; id: number; message: string };

export interface EngineWorkerData {
  config: Config;
  /** Backs the HandoffSlots both threads share. */
  handoffBuffer: SharedArrayBuffer;
  /** Backs the ListenerFlag both threads share: whether the live feed has listeners. */
  listenerBuffer: SharedArrayBuffer;
}
