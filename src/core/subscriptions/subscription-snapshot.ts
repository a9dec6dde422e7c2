import type { Subscription, WebhookSecurity } from '../store/types.js';
import { normalizeNumber } from '../phone-number.js';
import type { ChannelEvent, SubscriptionChannel } from './subscription-channels.js';
import { resourcesOf, storedProfileOf, webhookSecurityOf } from './stored-profile.js';

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

/**
 * An account's subscriptions as read at one moment, matched synchronously: code that decides events
 * inside a store transaction, where it cannot wait for a read, takes a snapshot before it begins.
 */
export interface SubscriptionSnapshot {
  targetsFor<C extends SubscriptionChannel>(channel: C, event: ChannelEvent<C>, attributes: MatchAttributes): WebhookTarget[];
}

export function snapshotOf(subscriptions: readonly Subscription[]): SubscriptionSnapshot {
  return {
    targetsFor(channel, event, attributes) {
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
    },
  };
}
