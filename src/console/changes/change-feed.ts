import { ChangeCollector } from './change-collector.js';
import type { ChangeBatch, WireChanges } from './change-set.js';
import { ListenerFlag } from './listener-flag.js';

/** One console's connection: it gets the changes of its account. */
export interface FeedListener {
  send(changes: WireChanges): void;
}

/** Where this node's changes go for the consoles of other nodes, and whether any listens (node-relay.ts). */
export interface FeedRelay {
  /** A console elsewhere listens: this node's changes are worth sending. */
  readonly wanted: boolean;
  publish(batch: ChangeBatch): void;
  /** This node's consoles came or went (the relay tells the other nodes while any is connected). */
  listening(local: boolean): void;
}

/** How often a console gets an event at most, and so how long changes gather first. */
export const FEED_INTERVAL_MS = 200;
/** How long the HTTP thread's own changes gather before joining the feed. */
const LOCAL_GATHER_MS = 20;

/**
 * The live feed of the HTTP thread: changes this thread makes (through its publishing store),
 * those the engine thread posts, and those other nodes relay, coalesced and sent to the consoles
 * of each account at most once per FEED_INTERVAL_MS. It keeps the shared ListenerFlag true while
 * anyone listens, here or on another node.
 */
export class ChangeFeed {
  readonly flag = new ListenerFlag();
  /** What this thread's publishing store reports into. */
  readonly local: ChangeCollector;
  private readonly listeners = new Map<string, Set<FeedListener>>();
  private readonly deliveries: ChangeCollector;
  private readonly outgoing: ChangeCollector;
  private relay: FeedRelay | undefined;
  private count = 0;

  constructor() {
    this.local = new ChangeCollector({ flag: this.flag, delayMs: LOCAL_GATHER_MS, sink: (batch) => this.publish(batch) });
    this.deliveries = new ChangeCollector({ delayMs: FEED_INTERVAL_MS, sink: (batch) => this.deliver(batch) });
    this.outgoing = new ChangeCollector({ delayMs: FEED_INTERVAL_MS, sink: (batch) => this.relay?.publish(batch) });
  }

  /** Another node's consoles can be fed from here, and this node's from there. */
  useRelay(relay: FeedRelay): void {
    this.relay = relay;
    this.refresh();
  }

  /** Changes made on this node (either thread). */
  publish(batch: ChangeBatch): void {
    this.accept(batch);
    if (this.relay?.wanted) this.outgoing.merge(batch);
  }

  /** Changes another node made: for this node's consoles only. */
  publishRemote(batch: ChangeBatch): void {
    this.accept(batch);
  }

  /** Starts feeding `listener` its account's changes; returns the function that stops it. */
  subscribe(accountId: string, listener: FeedListener): () => void {
    let forAccount = this.listeners.get(accountId);
    if (!forAccount) this.listeners.set(accountId, (forAccount = new Set()));
    forAccount.add(listener);
    this.count++;
    if (this.count === 1) this.relay?.listening(true);
    this.refresh();
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      forAccount.delete(listener);
      if (forAccount.size === 0) this.listeners.delete(accountId);
      this.count--;
      if (this.count === 0) this.relay?.listening(false);
      this.refresh();
    };
  }

  /** Connected consoles on this node. */
  get listening(): number {
    return this.count;
  }

  /** Whether publishers should report: someone listens here or on another node. */
  refresh(): void {
    this.flag.set(this.count > 0 || this.relay?.wanted === true);
  }

  /** Sends what is pending now (closing the server). */
  flush(): void {
    this.local.flush();
    this.deliveries.flush();
    this.outgoing.flush();
  }

  private accept(batch: ChangeBatch): void {
    const mine = batch.filter(([accountId]) => this.listeners.has(accountId));
    if (mine.length > 0) this.deliveries.merge(mine);
  }

  private deliver(batch: ChangeBatch): void {
    for (const [accountId, changes] of batch) {
      for (const listener of this.listeners.get(accountId) ?? []) listener.send(changes);
    }
  }
}
