import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPost {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body exactly as received (what an HMAC is computed over). */
  raw: string;
  body: Record<string, unknown>;
}

/** What the receiver answers to the n-th POST (0-based): a status code, or 'hang' to never answer. */
export type Answer = number | 'hang';

/** Chooses the answer to a POST from its index (0-based) and what it carried. */
export type Answerer = (index: number, post: ReceivedPost) => Answer;

/** A real local HTTP server standing in for a customer's webhook endpoint. */
export class WebhookReceiver {
  readonly posts: ReceivedPost[] = [];
  private readonly server: http.Server;
  private readonly hanging = new Set<http.ServerResponse>();
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  private constructor(answer: Answerer) {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const index = this.posts.length;
        const post: ReceivedPost = {
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          raw,
          body: JSON.parse(raw) as Record<string, unknown>,
        };
        this.posts.push(post);
        this.notify();
        const reply = answer(index, post);
        if (reply === 'hang') {
          this.hanging.add(response);
          return;
        }
        response.writeHead(reply, { 'content-type': 'text/plain' }).end('ok');
      });
    });
  }

  /** Starts a receiver on 127.0.0.1 with an ephemeral port; `answers[i]` answers the i-th POST, 200 after the list. */
  static async start(answers: Answer[] | Answerer = []): Promise<WebhookReceiver> {
    const answer: Answerer = typeof answers === 'function' ? answers : (i) => answers[i] ?? 200;
    const receiver = new WebhookReceiver(answer);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/hook`;
  }

  /** Resolves once `count` POSTs arrived; fails after `timeoutMs` of real time. */
  waitForPosts(count: number, timeoutMs = 5000): Promise<void> {
    if (this.posts.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`expected ${count} POSTs within ${timeoutMs} ms, got ${this.posts.length}`)),
        timeoutMs,
      );
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private notify(): void {
    const ready = this.waiters.filter((w) => this.posts.length >= w.count);
    this.waiters = this.waiters.filter((w) => this.posts.length < w.count);
    for (const waiter of ready) waiter.resolve();
  }
}

/** Polls `check` until it returns something other than undefined, within `timeoutMs` of real time. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
