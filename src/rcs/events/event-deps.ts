import type { Clock } from '../../core/clock.js';
import type { Metrics } from '../../core/metrics.js';
import type { MatchAttributes } from '../../core/subscriptions/subscription-snapshot.js';
import type { Store, StoredMessage } from '../../core/store/types.js';
import type { SubscriptionMatcher } from '../../core/subscriptions/matcher.js';

/** What handling an RCS network's user events needs: it reads messages and queues webhook items. */
export interface RcsEventDeps {
  store: Store;
  clock: Clock;
  metrics: Metrics;
  subscriptions: SubscriptionMatcher;
  /** Webhook items were queued: send them now rather than at the sender's next poll. */
  nudgeWebhooks: () => void;
}

/** Webhook formats of the RCS user events; both are batched as `{results: […]}`. */
export const RCS_SEEN_FORMAT = 'rcs-seen';
export const RCS_MO_FORMAT = 'rcs-mo';

/**
 * What an outbound message's events match subscriptions on, as its delivery reports do: its
 * platform ids, and its sender as `to` (a subscription's resources list the senders it is for).
 */
export function outboundAttributes(m: StoredMessage): MatchAttributes {
  const attributes: MatchAttributes = {};
  if (m.entityId !== undefined) attributes.entityId = m.entityId;
  if (m.applicationId !== undefined) attributes.applicationId = m.applicationId;
  if (m.sender !== undefined) attributes.to = m.sender;
  return attributes;
}
