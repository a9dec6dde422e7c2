import { type BenchServer, type Child, metricSum } from './processes.js';
import { startWebhookReceiver } from './webhook-receiver.js';

/** Waiting for the sandbox to deliver, and end-to-end delivery-report throughput. */

/**
 * Waits until every message the server accepted has been delivered (the bench's destinations all
 * are, an RCS message to a phone without RCS through its SMS failover, which counts as the RCS
 * message's delivery), so the next load does not share the machine with a backlog of the last one.
 */
export async function untilDelivered(server: Child, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const accepted = metricSum(text, 'switchboard_messages_accepted_total');
    if (metricSum(text, 'switchboard_message_status_changes_total', 'group="DELIVERED"') >= accepted) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not deliver its backlog in time');
}

export interface WebhookThroughput {
  perSecond: number;
  seconds: number;
  posts: number;
  complete: boolean;
  received: number;
  /** Reports received by their `channel` field ('' for reports without one). */
  byChannel: Map<string, number>;
}

/**
 * Sends `total` messages to `path` in requests of up to `perRequest` destinations (four requests in
 * flight), each report pushed to a local receiver, and times from the first send until the
 * receiver has `total` reports, or gives up `waitMs` after the last send was accepted.
 * `body(count, url)` is a request of `count` destinations whose reports go to `url`.
 */
export async function webhookThroughput(
  server: BenchServer,
  options: { path: string; total: number; body: (count: number, webhookUrl: string) => string; perRequest?: number; waitMs?: number },
): Promise<WebhookThroughput> {
  const perRequest = options.perRequest ?? 1000;
  let posts = 0;
  const byChannel = new Map<string, number>();
  const receiver = await startWebhookReceiver((results) => {
    posts += 1;
    for (const result of results as Array<{ channel?: string }>) {
      const channel = result.channel ?? '';
      byChannel.set(channel, (byChannel.get(channel) ?? 0) + 1);
    }
  });
  const bodies = new Map<number, string>();
  const bodyOf = (count: number): string => {
    let body = bodies.get(count);
    if (body === undefined) bodies.set(count, (body = options.body(count, receiver.url)));
    return body;
  };
  bodyOf(perRequest);
  const started = performance.now();
  let queued = 0;
  const worker = async (): Promise<void> => {
    while (queued < options.total) {
      const count = Math.min(perRequest, options.total - queued);
      queued += count;
      const response = await fetch(`${server.url}${options.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `App ${server.apiKey}` },
        body: bodyOf(count),
      });
      if (!response.ok) throw new Error(`send to ${options.path} failed: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  try {
    await Promise.all(Array.from({ length: 4 }, worker));
    const { complete, received } = await receiver.done(options.total, options.waitMs ?? 120_000);
    const seconds = (performance.now() - started) / 1000;
    return { perSecond: received / seconds, seconds, posts, complete, received, byChannel };
  } finally {
    receiver.close();
  }
}
