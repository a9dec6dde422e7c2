import type { StoreSignals } from '../../core/store/types.js';
import type { Logger } from '../../logger.js';
import type { ChangeFeed, FeedRelay } from './change-feed.js';
import type { ChangeBatch, WireChanges } from './change-set.js';

/** The store signal channel the nodes' feeds share. */
export const FEED_CHANNEL = 'switchboard_feed';
/** A node with consoles says so this often... */
const HELLO_EVERY_MS = 25_000;
/** ...and the others send it their changes for this long after each hello. */
const HELLO_VALID_MS = 60_000;
/** A signal's payload stays under PostgreSQL's 8000 bytes. */
const MAX_PAYLOAD = 7_500;

/** What nodes tell each other: "my consoles listen", "who listens?", or changes made here. */
interface Signal {
  node: string;
  hello?: true;
  ask?: true;
  batch?: ChangeBatch;
}

/** The same changes with their id lists given up, so that they fit a signal. */
function shrunk(changes: WireChanges): WireChanges {
  const out: WireChanges = {};
  if (changes.messages || changes.messagesOverflow) out.messagesOverflow = true;
  if (changes.phones || changes.phonesOverflow) out.phonesOverflow = true;
  if (changes.calls || changes.callsOverflow) out.callsOverflow = true;
  if (changes.webhooks) out.webhooks = true;
  if (changes.verifications || changes.verificationsOverflow) out.verificationsOverflow = true;
  return out;
}

/** The batch as signal payloads of at most MAX_PAYLOAD bytes each. */
export function signalPayloads(node: string, batch: ChangeBatch): string[] {
  const payloads: string[] = [];
  let current: ChangeBatch = [];
  const text = (entries: ChangeBatch): string => JSON.stringify({ node, batch: entries } satisfies Signal);
  // Each entry is measured once: the payload's size is its envelope plus its entries and commas.
  const envelope = Buffer.byteLength(text([]));
  let size = envelope;
  for (const entry of batch) {
    let fitting: [string, WireChanges] = entry;
    let entrySize = Buffer.byteLength(JSON.stringify(fitting));
    if (envelope + entrySize > MAX_PAYLOAD) {
      fitting = [entry[0], shrunk(entry[1])];
      entrySize = Buffer.byteLength(JSON.stringify(fitting));
    }
    const added = entrySize + (current.length > 0 ? 1 : 0);
    if (current.length > 0 && size + added > MAX_PAYLOAD) {
      payloads.push(text(current));
      current = [];
      size = envelope;
    }
    size += entrySize + (current.length > 0 ? 1 : 0);
    current.push(fitting);
  }
  if (current.length > 0) payloads.push(text(current));
  return payloads;
}

/**
 * Carries the live feed between the nodes sharing a PostgreSQL database. A node whose consoles
 * listen says hello every HELLO_EVERY_MS (and when asked by a node that just started); a node that
 * heard a hello within HELLO_VALID_MS raises its listener flag, so that its threads report their
 * changes, and sends them, coalesced by the feed, as signals. Nodes nobody listens to send nothing.
 * Liveness between processes is measured on the system clock, whatever clock the server runs on.
 */
export class NodeRelay implements FeedRelay {
  private remoteUntil = 0;
  private helloTimer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  private constructor(
    private readonly signals: StoreSignals,
    private readonly node: string,
    private readonly feed: ChangeFeed,
    private readonly log: Logger,
  ) {}

  static async start(deps: { signals: StoreSignals; nodeId: string; feed: ChangeFeed; log: Logger }): Promise<NodeRelay> {
    const relay = new NodeRelay(deps.signals, deps.nodeId, deps.feed, deps.log);
    relay.unlisten = await deps.signals.listen(FEED_CHANNEL, (payload) => relay.received(payload));
    deps.feed.useRelay(relay);
    relay.send({ node: relay.node, ask: true });
    return relay;
  }

  get wanted(): boolean {
    return Date.now() < this.remoteUntil;
  }

  publish(batch: ChangeBatch): void {
    if (!this.wanted) return;
    for (const payload of signalPayloads(this.node, batch)) this.notify(payload);
  }

  listening(local: boolean): void {
    clearInterval(this.helloTimer);
    this.helloTimer = undefined;
    if (!local) return;
    this.send({ node: this.node, hello: true });
    this.helloTimer = setInterval(() => this.send({ node: this.node, hello: true }), HELLO_EVERY_MS).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.helloTimer);
    clearTimeout(this.expiryTimer);
    await this.unlisten?.().catch(() => undefined);
  }

  private received(payload: string): void {
    let signal: Signal;
    try {
      signal = JSON.parse(payload) as Signal;
    } catch {
      return;
    }
    if (signal.node === this.node) return;
    if (signal.hello) this.heardHello();
    if (signal.ask && this.feed.listening > 0) this.send({ node: this.node, hello: true });
    if (signal.batch) this.feed.publishRemote(signal.batch);
  }

  private heardHello(): void {
    this.remoteUntil = Date.now() + HELLO_VALID_MS;
    this.feed.refresh();
    clearTimeout(this.expiryTimer);
    this.expiryTimer = setTimeout(() => this.feed.refresh(), HELLO_VALID_MS + 10).unref();
  }

  private send(signal: Signal): void {
    this.notify(JSON.stringify(signal));
  }

  private notify(payload: string): void {
    this.signals.notify(FEED_CHANNEL, payload).catch((error: unknown) => this.log.warn({ err: error }, 'could not signal the other nodes'));
  }
}
