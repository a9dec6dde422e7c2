/** Account subscriptions (the Subscriptions API). */

export interface Subscription {
  accountId: string;
  subscriptionId: string;
  channel: string;
  name?: string;
  events: string[];
  /** Stored as given: `{ profileId?, webhook?: { notifyUrl, ... }, security?: {...} }`. */
  profile?: Record<string, unknown>;
  criteria?: Record<string, unknown>[];
  resources?: Record<string, unknown>[];
  createdAt: number;
  updatedAt: number;
}

export interface SubscriptionStore {
  create(subscription: Subscription): Promise<'created' | 'duplicate'>;
  get(accountId: string, subscriptionId: string): Promise<Subscription | undefined>;
  list(accountId: string, channel?: string): Promise<Subscription[]>;
  update(subscription: Subscription): Promise<boolean>;
  delete(accountId: string, subscriptionId: string): Promise<boolean>;
}
