import { authHeaders, signOut } from './api';

/** What changed, as the server's `changes` events say it (only the keys that changed are present). */
export interface Changes {
  messages?: string[];
  messagesOverflow?: boolean;
  phones?: string[];
  phonesOverflow?: boolean;
  calls?: string[];
  callsOverflow?: boolean;
  webhooks?: boolean;
  verifications?: string[];
  verificationsOverflow?: boolean;
}

export type LiveState = 'connecting' | 'live' | 'offline';

type ChangeListener = (changes: Changes) => void;
type StateListener = (state: LiveState) => void;

/**
 * The server's change stream (`GET /switchboard/1/events`, server-sent events) read with fetch, since
 * EventSource cannot send the Authorization header. It reconnects with a growing pause, and tells its
 * listeners everything may have changed after a reconnect, since events may have been missed.
 */
export class LiveChanges {
  private readonly changeListeners = new Set<ChangeListener>();
  private readonly stateListeners = new Set<StateListener>();
  private abort: AbortController | undefined;
  private current: LiveState = 'offline';
  /** Each start begins a new run; a run whose generation has passed ends at its next step. */
  private generation = 0;
  private running = false;

  get state(): LiveState {
    return this.current;
  }

  onChange(listener: ChangeListener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onState(listener: StateListener): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.run(++this.generation);
  }

  stop(): void {
    this.running = false;
    this.generation++;
    this.abort?.abort();
    this.setState('offline');
  }

  private setState(state: LiveState): void {
    if (state === this.current) return;
    this.current = state;
    for (const listener of this.stateListeners) listener(state);
  }

  private emit(changes: Changes): void {
    for (const listener of this.changeListeners) listener(changes);
  }

  private async run(generation: number): Promise<void> {
    let pauseMs = 500;
    let connectedBefore = false;
    const current = (): boolean => generation === this.generation;
    while (current()) {
      this.setState('connecting');
      const abort = (this.abort = new AbortController());
      try {
        const response = await fetch('/switchboard/1/events', { headers: { accept: 'text/event-stream', ...authHeaders() }, signal: abort.signal });
        if (response.status === 401) {
          this.stop();
          signOut();
          return;
        }
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        for await (const event of serverSentEvents(response.body)) {
          if (event.type === 'ready') {
            this.setState('live');
            pauseMs = 500;
            if (connectedBefore) this.emit({ messagesOverflow: true, phonesOverflow: true, callsOverflow: true, verificationsOverflow: true, webhooks: true });
            connectedBefore = true;
          } else if (event.type === 'changes') {
            this.emit(JSON.parse(event.data) as Changes);
          }
        }
      } catch {
        // Refused, dropped or stopped: try again below unless stopped.
      }
      if (!current()) break;
      this.setState('offline');
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      pauseMs = Math.min(pauseMs * 2, 10_000);
    }
  }
}

interface ServerSentEvent {
  type: string;
  data: string;
}

/** The events of a text/event-stream body (the parts of the format the server uses: event, data, comments). */
async function* serverSentEvents(body: ReadableStream<BufferSource>): AsyncGenerator<ServerSentEvent> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) type = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0 || type !== 'message') yield { type, data: data.join('\n') };
    }
  }
}

export const live = new LiveChanges();
