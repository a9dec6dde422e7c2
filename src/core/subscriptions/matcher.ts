import type { Clock } from '../clock.js';
import type { Store, Subscription, WebhookSecurity } from '../store/types.js';
import { resourcesOf, storedProfileOf, webhookSecurityOf } from './stored-profile.js';
import { normalizeNumber } from '../phone-number.js';
import type { ChannelEvent, SubscriptionChannel } from './subscription-channels.js';

export type { SubscriptionEventName } from './subscription-channels.js';

export interface WebhookTarget {
  url: string;
  security?: WebhookSecurity;
  subscriptionId: string;
}

/**
 * What an event is matched on. `to` is matched against a subscription's `resources`: for inbound
 * messages it is our receiving number; for delivery reports callers pass the message's sender.
 * `callsConfigurationId` is a call event's calls configuration.
 */
export interface MatchAttributes {
  entityId?: string;
  applicationId?: string;
  callsConfigurationId?: string;
  to?: string;
}

const CRITERIA_FIELDS = ['applicationId', 'entityId', 'callsConfigurationId'] as const;

/**
 * Matching rules: the channel and event must be subscribed; absent or empty `criteria` match
 * anything, otherwise one {applicationId, entityId, callsConfigurationId} pair must match, where an
 * omitted field matches anything and a given one must equal the event's value; absent or empty
 * `resources` match anything, otherwise `to` must be one of them (a leading `+` is ignored on both
 * sides).
 */
export function subscriptionMatches(
  subscription: Subscription,
  channel: string,
  event: string,
  attributes: MatchAttributes,
): boolean {
  if (subscription.channel !== channel || !subscription.events.includes(event)) return false;
  const criteria = subscription.criteria ?? [];
  if (criteria.length > 0) {
    const pairMatches = (pair: Record<string, unknown>): boolean =>
      CRITERIA_FIELDS.every((field) => !pair[field] || pair[field] === attributes[field]);
    if (!criteria.some(pairMatches)) return false;
  }
  const resources = resourcesOf(subscription);
  if (resources.length > 0) {
    if (attributes.to === undefined) return false;
    const to = normalizeNumber(attributes.to);
    if (!resources.some((r) => normalizeNumber(r) === to)) return false;
  }
  return true;
}

interface CacheEntry {
  loadedAt: number;
  subscriptions: Promise<Subscription[]>;
}

/**
 * Finds the webhook targets of an event. The pipeline asks for every report batch, so an account's
 * subscriptions are cached briefly; the Subscriptions API invalidates the account on every change,
 * and other nodes see a change within `cacheMs`.
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
    const subscriptions = await this.load(accountId);
    const targets: WebhookTarget[] = [];
    for (const subscription of subscriptions) {
      if (!subscriptionMatches(subscription, channel, event, attributes)) continue;
      const profile = storedProfileOf(subscription);
      if (!profile) continue;
      const target: WebhookTarget = { url: profile.webhook.notifyUrl, subscriptionId: subscription.subscriptionId };
      const security = webhookSecurityOf(profile.security);
      if (security) target.security = security;
      targets.push(target);
    }
    return targets;
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
