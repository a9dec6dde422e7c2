import type { Subscription } from '../store/types.js';
import { resourcesOf, storedProfileOf } from './stored-profile.js';

/**
 * Response shapes of the Subscriptions API. Security settings show only their `authId`: passwords and
 * HMAC secrets are write-only. GET responses add the profile's `webhook` (as in Infobip's profile
 * responses) so the target URL can be checked without a profiles API.
 */

interface ProfileWire {
  profileId: string;
  webhook?: { notifyUrl: string; contentType?: string };
  security?: { authId: string };
}

function profileWire(subscription: Subscription, withWebhook: boolean): ProfileWire | undefined {
  const profile = storedProfileOf(subscription);
  if (!profile) return undefined;
  const wire: ProfileWire = { profileId: profile.profileId };
  if (withWebhook) {
    wire.webhook = { notifyUrl: profile.webhook.notifyUrl };
    if (profile.webhook.contentType !== undefined) wire.webhook.contentType = profile.webhook.contentType;
  }
  if (profile.security) wire.security = { authId: profile.security.authId };
  return wire;
}

/** IdOnlySubscriptionResponse: the answer of create, update and delete. */
export function idOnlyWire(subscription: Subscription): Record<string, unknown> {
  const wire: Record<string, unknown> = { subscriptionId: subscription.subscriptionId };
  const profile = profileWire(subscription, false);
  if (profile) wire.profile = profile;
  return wire;
}

/** SubscriptionResponse: one subscription in GET answers. */
export function subscriptionWire(subscription: Subscription): Record<string, unknown> {
  const wire: Record<string, unknown> = { subscriptionId: subscription.subscriptionId };
  if (subscription.name !== undefined) wire.name = subscription.name;
  const profile = profileWire(subscription, true);
  if (profile) wire.profile = profile;
  wire.events = subscription.events;
  if (subscription.criteria !== undefined) {
    wire.criteria = subscription.criteria.map((pair) => {
      const out: Record<string, string> = {};
      for (const key of ['applicationId', 'entityId', 'callsConfigurationId']) {
        if (typeof pair[key] === 'string') out[key] = pair[key];
      }
      return out;
    });
  }
  if (subscription.resources !== undefined) wire.resources = resourcesOf(subscription);
  return wire;
}
