import { badRequest, type Violation } from '../errors/api-problem.js';
import { randomHex } from '../ids.js';
import { DEFAULT_HMAC_ALGORITHM } from '../outbox/webhook-auth.js';
import type { Subscription } from '../store/types.js';
import { validateWebhookUrl } from '../webhook-url.js';
import { storedProfileOf, type StoredProfile, type StoredSecurity } from './stored-profile.js';
import { eventsOfChannel } from './subscription-channels.js';

/** Request bodies of create (with subscriptionId) and update, as the schemas let them through. */
export interface SubscriptionBody {
  subscriptionId?: string;
  name?: string;
  events: Array<string | { event?: string; format?: string }>;
  criteria?: Array<{ applicationId?: string; entityId?: string; callsConfigurationId?: string }>;
  resources?: string[];
  users?: string[];
  profile?: ProfileBody;
}

export interface ProfileBody {
  profileId?: string;
  webhook?: { notifyUrl: string; contentType?: string };
  security?: SecurityBody;
  [setting: string]: unknown;
}

interface SecurityBody {
  authId?: string;
  type?: string;
  credentials?: { username?: string; password?: string; secretKey?: string; algorithm?: string };
}

/** Subscription, profile and security ids are used in URL paths, so only characters that never need encoding. */
const URL_SAFE_ID = /^[A-Za-z0-9._~-]+$/;

function checkUrlSafeId(property: string, id: string, violations: Violation[]): void {
  if (!URL_SAFE_ID.test(id)) violations.push({ property, violation: 'must contain only letters, digits and - . _ ~' });
}

/** The distinct event names of a request, each checked against its channel's. */
function eventNames(events: SubscriptionBody['events'], channel: string, violations: Violation[]): string[] {
  const allowed = eventsOfChannel(channel) ?? [];
  const names: string[] = [];
  events.forEach((event, i) => {
    // Format-aware events ({event, format}) are accepted; we push every event in its one format.
    const name = typeof event === 'string' ? event : event.event;
    if (name === undefined) violations.push({ property: `events[${i}].event`, violation: 'must not be null' });
    else if (!allowed.includes(name)) {
      violations.push({ property: `events[${i}]`, violation: `must be one of [${allowed.join(', ')}]` });
    } else if (!names.includes(name)) names.push(name);
  });
  return names;
}

/** Security settings by authId among the account's profiles, so a subscription can reuse them. */
function findSecurity(authId: string, known: StoredProfile[]): StoredSecurity | undefined {
  return known.find((p) => p.security?.authId === authId)?.security;
}

function resolveSecurity(body: SecurityBody | undefined, known: StoredProfile[], violations: Violation[]): StoredSecurity | undefined {
  if (!body) return undefined;
  const at = 'profile.security';
  if (body.type === undefined && body.credentials === undefined) {
    const existing = body.authId === undefined ? undefined : findSecurity(body.authId, known);
    if (!existing) violations.push({ property: `${at}.type`, violation: 'must not be null' });
    return existing;
  }
  if (body.type !== 'BASIC' && body.type !== 'HMAC') {
    violations.push({ property: `${at}.type`, violation: 'must be one of [BASIC, HMAC]' });
    return undefined;
  }
  const c = body.credentials ?? {};
  const missing = (field: string): void => {
    violations.push({ property: `${at}.credentials.${field}`, violation: 'must not be null' });
  };
  if (body.authId !== undefined) checkUrlSafeId(`${at}.authId`, body.authId, violations);
  const authId = body.authId ?? randomHex(12);
  if (body.type === 'BASIC') {
    if (c.username === undefined) missing('username');
    if (c.password === undefined) missing('password');
    return { authId, type: 'BASIC', credentials: { username: c.username, password: c.password } };
  }
  if (c.secretKey === undefined) missing('secretKey');
  return { authId, type: 'HMAC', credentials: { secretKey: c.secretKey, algorithm: c.algorithm ?? DEFAULT_HMAC_ALGORITHM } };
}

/**
 * A profile defined inline (`webhook` given) becomes this subscription's profile; a bare `profileId`
 * reuses the profile of that id from this or another subscription of the account.
 */
function resolveProfile(
  body: ProfileBody | undefined,
  known: StoredProfile[],
  current: StoredProfile | undefined,
  violations: Violation[],
): StoredProfile | undefined {
  if (!body) {
    if (!current) violations.push({ property: 'profile', violation: 'must not be null' });
    return current;
  }
  if (!body.webhook) {
    if (body.profileId === undefined) {
      violations.push({ property: 'profile.webhook', violation: 'must not be null' });
      return undefined;
    }
    const existing = [current, ...known].find((p) => p?.profileId === body.profileId);
    if (!existing) {
      violations.push({ property: 'profile.profileId', violation: 'no profile with this id; define one with profile.webhook' });
    }
    return existing;
  }
  const urlProblem = validateWebhookUrl(body.webhook.notifyUrl);
  if (urlProblem) violations.push({ property: 'profile.webhook.notifyUrl', violation: urlProblem });
  const { profileId, webhook, security, ...settings } = body;
  if (profileId !== undefined) checkUrlSafeId('profile.profileId', profileId, violations);
  const profile: StoredProfile = { ...settings, profileId: profileId ?? randomHex(12), webhook: { notifyUrl: webhook.notifyUrl } };
  if (webhook.contentType !== undefined) profile.webhook.contentType = webhook.contentType;
  const resolvedSecurity = resolveSecurity(security, current ? [current, ...known] : known, violations);
  if (resolvedSecurity) profile.security = resolvedSecurity;
  return profile;
}

export interface BuildContext {
  accountId: string;
  subscriptionId: string;
  channel: string;
  now: number;
  /** The account's other subscriptions, whose profiles and security settings may be reused by id. */
  others: Subscription[];
  /** The subscription being updated. */
  current?: Subscription;
}

/** Validates a create/update body and returns the subscription to store; throws a 400 naming every bad field. */
export function buildSubscription(body: SubscriptionBody, ctx: BuildContext): Subscription {
  const violations: Violation[] = [];
  checkUrlSafeId('subscriptionId', ctx.subscriptionId, violations);
  const events = eventNames(body.events, ctx.channel, violations);
  const known = ctx.others.map(storedProfileOf).filter((p): p is StoredProfile => p !== undefined);
  const current = ctx.current && storedProfileOf(ctx.current);
  const profile = resolveProfile(body.profile, known, current, violations);
  if (violations.length > 0 || !profile) throw badRequest(violations);
  const subscription: Subscription = {
    accountId: ctx.accountId,
    subscriptionId: ctx.subscriptionId,
    channel: ctx.channel,
    events,
    profile,
    createdAt: ctx.current?.createdAt ?? ctx.now,
    updatedAt: ctx.now,
  };
  if (body.name !== undefined) subscription.name = body.name;
  if (body.criteria !== undefined) {
    subscription.criteria = body.criteria.map((pair) => {
      const kept: Record<string, unknown> = {};
      if (pair.applicationId !== undefined) kept.applicationId = pair.applicationId;
      if (pair.entityId !== undefined) kept.entityId = pair.entityId;
      if (pair.callsConfigurationId !== undefined) kept.callsConfigurationId = pair.callsConfigurationId;
      return kept;
    });
  }
  if (body.resources !== undefined) subscription.resources = body.resources.map((resource) => ({ resource }));
  return subscription;
}
