import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints in a thread of their own. A checkpoint copies every page written since the last
 * one into the database file and syncs it; run by SQLite's autocheckpoint, it runs inside the
 * commit that crosses the threshold, and under a steady load that was the engine thread's busiest
 * work after its own statements (measured: end-to-end webhooks 5.4–5.6 k/s with it in the engine's
 * commits, 5.9–6.5 k/s without). Here the committing connections turn autocheckpoint off and this
 * thread checkpoints on a timer; PASSIVE checkpoints take no lock a writer waits for.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private stopping = false;

  /**
   * Starts checkpointing `path` every `intervalMs`, rewinding the WAL once it holds `restartFrames`
   * pages. `onError` hears of checkpoints that failed; `onDeath` is called if the thread ends
   * without being stopped, so the caller can checkpoint some other way.
   */
  constructor(
    path: string,
    options: { intervalMs: number; restartFrames: number },
    events: { onError: (message: string) => void; onDeath: (error: Error) => void },
  ) {
    this.worker = new Worker(new URL('./checkpoint-worker.js', import.meta.url), {
      workerData: { path, ...options },
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 },
    });
    this.worker.on('message', (message: { type: string; message?: string }) => {
      if (message.type === 'error') events.onError(message.message ?? 'checkpoint failed');
    });
    let failure: Error | undefined;
    // A SQLite error thrown in the thread arrives as a plain object, not an Error.
    this.worker.on('error', (error: unknown) => (failure = asError(error)));
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', (code) => {
        if (!this.stopping) events.onDeath(failure ?? new Error(`the checkpoint thread exited with code ${code}`));
        resolve();
      });
    });
  }

  /** A last checkpoint, then the thread ends. */
  async stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      this.worker.postMessage({ type: 'stop' });
    }
    await this.exited;
  }
}

function asError(value: unknown): Error {
  if (value instanceof Error) return value;
  const { message, code } = (value ?? {}) as { message?: unknown; code?: unknown };
  if (typeof message === 'string') return new Error(message);
  return new Error(typeof code === 'string' ? `the checkpoint thread failed: ${code}` : 'the checkpoint thread failed');
}
