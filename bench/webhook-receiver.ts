import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  url: string;
  /** Resolves once `total` results arrived (`complete`), or after `timeoutMs` with what did. */
  done(total: number, timeoutMs: number): Promise<{ complete: boolean; received: number }>;
  close(): void;
}

/** A local endpoint for delivery-report webhooks; `onResults` sees each POST's results as they come. */
export async function startWebhookReceiver(onResults: (results: Array<{ messageId: string }>, now: number) => void): Promise<WebhookReceiver> {
  let received = 0;
  let waiting: { total: number; resolve: () => void } | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { results: Array<{ messageId: string }> };
      received += body.results.length;
      onResults(body.results, performance.now());
      response.writeHead(200).end();
      if (waiting && received >= waiting.total) waiting.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/dlr`,
    done: (total, timeoutMs) =>
      new Promise((resolve) => {
        if (received >= total) return resolve({ complete: true, received });
        const timer = setTimeout(() => resolve({ complete: false, received }), timeoutMs);
        waiting = {
          total,
          resolve: () => {
            clearTimeout(timer);
            resolve({ complete: true, received });
          },
        };
      }),
    close: () => server.close(),
  };
}
