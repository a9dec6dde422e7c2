import type { Config } from '../config.js';
import type { ClaimedMessage } from '../core/store/types.js';

/** Messages between the server thread and the engine worker. */
export type ToEngine =
  | { type: 'nudge'; target: 'dispatcher' | 'webhooks' }
  | { type: 'handoff'; messages: ClaimedMessage[] }
  | { type: 'invalidate'; accountId: string }
  | { type: 'call'; id: number; method: 'sandboxRules' | 'setSandboxRules' | 'metrics' | 'stop'; args: unknown[] };

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
