/** A client of GET /switchboard/1/events, reading it as the console does: fetch() with the API key, the body as a stream. */

export interface FeedEvent {
  event: string;
  data: any;
}

export class EventStreamClient {
  readonly events: FeedEvent[] = [];
  /** Comment lines (`: ping`). */
  readonly comments: string[] = [];
  private readonly controller = new AbortController();
  private waiters: Array<() => void> = [];
  private done = false;

  private constructor(readonly response: Response) {}

  static async open(baseUrl: string, key: string): Promise<EventStreamClient> {
    const controller = new AbortController();
    const response = await fetch(`${baseUrl}/switchboard/1/events`, { headers: { authorization: `App ${key}` }, signal: controller.signal });
    const client = new EventStreamClient(response);
    client.controller.signal.addEventListener('abort', () => controller.abort());
    if (response.ok && response.body) void client.read(response.body);
    return client;
  }

  /** Resolves with the first event (from the start of the stream) matching, waiting up to `timeoutMs` of real time. */
  async next(match: (event: FeedEvent) => boolean, timeoutMs = 5000, from = 0): Promise<FeedEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      if (this.done) throw new Error('the event stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves once the server ended the stream. */
  async ended(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.done) {
      if (Date.now() > deadline) throw new Error('the event stream did not end');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.controller.abort();
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          this.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // Aborted by close().
    }
    this.done = true;
    this.wake();
  }

  private parse(block: string): void {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length > 0) this.events.push({ event, data: JSON.parse(data.join('\n')) });
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
