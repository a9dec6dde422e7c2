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
  | { type: 'error'; id: number; message: string };

export interface EngineWorkerData {
  config: Config;
  /** Backs the HandoffSlots both threads share. */
  handoffBuffer: SharedArrayBuffer;
}
