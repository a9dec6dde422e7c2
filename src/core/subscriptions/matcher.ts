import type { Clock } from '../clock.js';
import type { Store, Subscription } from '../store/types.js';
import type { ChannelEvent, SubscriptionChannel } from './subscription-channels.js';
import { snapshotOf, type MatchAttributes, type SubscriptionSnapshot, type WebhookTarget } from './subscription-snapshot.js';

export type { SubscriptionEventName } from './subscription-channels.js';
export type { MatchAttributes, SubscriptionSnapshot, WebhookTarget } from './subscription-snapshot.js';

interface CacheEntry {
  loadedAt: number;
  subscriptions: Promise<Subscription[]>;
}

/**
 * Finds the webhook targets of an event (`subscription-snapshot.ts` says how they match). The
 * pipeline asks for every report batch, so an account's subscriptions are cached briefly; the
 * Subscriptions API invalidates the account on every change, and other nodes see a change within
 * `cacheMs`. A snapshot is taken from the same cache.
 */
export class SubscriptionMatcher {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly cacheMs: number;

  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      cacheMs?: number;
      /** Called on every invalidation, so caches elsewhere (another thread's) can follow. */
      onInvalidate?: (accountId: string) => void;
    },
  ) {
    this.cacheMs = deps.cacheMs ?? 1000;
  }

  async targetsFor<C extends SubscriptionChannel>(
    accountId: string,
    channel: C,
    event: ChannelEvent<C>,
    attributes: MatchAttributes,
  ): Promise<WebhookTarget[]> {
    return (await this.snapshot(accountId)).targetsFor(channel, event, attributes);
  }

  /** The account's subscriptions as now cached (read if they are not), to match without waiting. */
  async snapshot(accountId: string): Promise<SubscriptionSnapshot> {
    return snapshotOf(await this.load(accountId));
  }

  invalidate(accountId: string): void {
    this.cache.delete(accountId);
    this.deps.onInvalidate?.(accountId);
  }

  private load(accountId: string): Promise<Subscription[]> {
    const now = this.deps.clock.now();
    const cached = this.cache.get(accountId);
    if (cached && now - cached.loadedAt < this.cacheMs && now >= cached.loadedAt) return cached.subscriptions;
    const subscriptions = this.deps.store.subscriptions.list(accountId);
    const entry: CacheEntry = { loadedAt: now, subscriptions };
    this.cache.set(accountId, entry);
    // A failed read is not cached; the next event reads again.
    subscriptions.catch(() => {
      if (this.cache.get(accountId) === entry) this.cache.delete(accountId);
    });
    return subscriptions;
  }
}
