import { parentPort } from 'node:worker_threads';
import type { Envelope } from './on-demand-worker.js';

export interface Answer<Reply> {
  reply: Reply;
  /** Buffers moved to the asking thread rather than copied. */
  transfer?: ArrayBuffer[];
}

/**
 * The worker side of OnDemandWorker: answers each request in the order they came, one at a time.
 * The handler answers failures in its reply; a throw is a bug and ends the thread, failing the
 * requests pending in the asking thread.
 */
export function serveRequests<Request, Reply>(handle: (request: Request) => Promise<Answer<Reply>>): void {
  const port = parentPort!;
  let previous = Promise.resolve();
  port.on('message', ({ id, body }: Envelope<Request>) => {
    previous = previous.then(async () => {
      const { reply, transfer = [] } = await handle(body);
      port.postMessage({ id, body: reply } satisfies Envelope<Reply>, transfer);
    });
  });
}
