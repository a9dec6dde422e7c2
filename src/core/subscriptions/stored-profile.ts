import type { Subscription, WebhookSecurity } from '../store/types.js';

/**
 * What a subscription keeps in its `profile` column: the notification profile of Infobip's
 * Subscriptions API, defined inline (we have no separate profiles API). Credentials are kept because
 * the sender needs them; they never leave through the API.
 */
export interface StoredProfile {
  profileId: string;
  webhook: { notifyUrl: string; contentType?: string };
  security?: StoredSecurity;
  /** Other ProfileRequest settings (maxBucketSize, headers, timeouts…) stored as given, not acted on. */
  [setting: string]: unknown;
}

export interface StoredSecurity {
  authId: string;
  type: 'BASIC' | 'HMAC';
  credentials: { username?: string; password?: string; secretKey?: string; algorithm?: string };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a stored profile back, or undefined when the row holds none usable. */
export function storedProfileOf(subscription: Subscription): StoredProfile | undefined {
  const profile = subscription.profile;
  if (!isRecord(profile) || typeof profile.profileId !== 'string' || !isRecord(profile.webhook)) return undefined;
  if (typeof profile.webhook.notifyUrl !== 'string') return undefined;
  return profile as StoredProfile;
}

/** The outbox form of a profile's security. */
export function webhookSecurityOf(security: StoredSecurity | undefined): WebhookSecurity | undefined {
  if (!security) return undefined;
  const c = security.credentials;
  if (security.type === 'BASIC') return { type: 'BASIC', username: c.username, password: c.password };
  return { type: 'HMAC', secret: c.secretKey, algorithm: c.algorithm };
}

/** Resources are strings on the wire; the store keeps them as `{resource}` records. */
export function resourcesOf(subscription: Subscription): string[] {
  const out: string[] = [];
  for (const entry of subscription.resources ?? []) {
    if (typeof entry.resource === 'string') out.push(entry.resource);
  }
  return out;
}
