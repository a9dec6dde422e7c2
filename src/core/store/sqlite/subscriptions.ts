import type { Subscription, SubscriptionStore } from '../types.js';
import { jsonOrNull, nullToUndefined, orNull, parseJson, parseJsonOrUndefined, preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';
import { omitUndefined } from '../../omit-undefined.js';

interface SubscriptionRow {
  account_id: string;
  subscription_id: string;
  channel: string;
  name: string | null;
  events: string;
  profile: string | null;
  criteria: string | null;
  resources: string | null;
  created_at: number;
  updated_at: number;
}

const toSubscription = (row: SubscriptionRow): Subscription =>
  omitUndefined({
    accountId: row.account_id,
    subscriptionId: row.subscription_id,
    channel: row.channel,
    name: nullToUndefined(row.name),
    events: parseJson<string[]>(row.events),
    profile: parseJsonOrUndefined<Record<string, unknown>>(row.profile),
    criteria: parseJsonOrUndefined<Record<string, unknown>[]>(row.criteria),
    resources: parseJsonOrUndefined<Record<string, unknown>[]>(row.resources),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });

const toParams = (subscription: Subscription) => ({
  accountId: subscription.accountId,
  subscriptionId: subscription.subscriptionId,
  channel: subscription.channel,
  name: orNull(subscription.name),
  events: JSON.stringify(subscription.events),
  profile: jsonOrNull(subscription.profile),
  criteria: jsonOrNull(subscription.criteria),
  resources: jsonOrNull(subscription.resources),
  createdAt: subscription.createdAt,
  updatedAt: subscription.updatedAt,
});

export class SqliteSubscriptionStore implements SubscriptionStore {
  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare<ReturnType<typeof toParams>>(
      `INSERT INTO subscriptions (account_id, subscription_id, channel, name, events, profile, criteria, resources,
         created_at, updated_at)
       VALUES (@accountId, @subscriptionId, @channel, @name, @events, @profile, @criteria, @resources,
         @createdAt, @updatedAt)
       ON CONFLICT (account_id, subscription_id) DO NOTHING`,
    ),
    // created_at is kept from the original row.
    update: this.db.prepare<Omit<ReturnType<typeof toParams>, 'createdAt'>>(
      `UPDATE subscriptions SET channel = @channel, name = @name, events = @events, profile = @profile,
         criteria = @criteria, resources = @resources, updated_at = @updatedAt
       WHERE account_id = @accountId AND subscription_id = @subscriptionId`,
    ),
    get: this.db.prepare<[string, string], SubscriptionRow>(
      'SELECT * FROM subscriptions WHERE account_id = ? AND subscription_id = ?',
    ),
    list: this.db.prepare<[string], SubscriptionRow>(
      'SELECT * FROM subscriptions WHERE account_id = ? ORDER BY created_at, subscription_id',
    ),
    listByChannel: this.db.prepare<[string, string], SubscriptionRow>(
      'SELECT * FROM subscriptions WHERE account_id = ? AND channel = ? ORDER BY created_at, subscription_id',
    ),
    delete: this.db.prepare<[string, string]>('DELETE FROM subscriptions WHERE account_id = ? AND subscription_id = ?'),
  }));

  constructor(private readonly db: Db) {}

  async create(subscription: Subscription): Promise<'created' | 'duplicate'> {
    const result = await withoutBlockingOnLocks(this.db, () => this.sql().insert.run(toParams(subscription)));
    return result.changes > 0 ? 'created' : 'duplicate';
  }

  async get(accountId: string, subscriptionId: string): Promise<Subscription | undefined> {
    const row = this.sql().get.get(accountId, subscriptionId);
    return row && toSubscription(row);
  }

  async list(accountId: string, channel?: string): Promise<Subscription[]> {
    const { list, listByChannel } = this.sql();
    const rows = channel === undefined ? list.all(accountId) : listByChannel.all(accountId, channel);
    return rows.map(toSubscription);
  }

  async update(subscription: Subscription): Promise<boolean> {
    const { createdAt: _keptFromRow, ...params } = toParams(subscription);
    return (await withoutBlockingOnLocks(this.db, () => this.sql().update.run(params))).changes > 0;
  }

  async delete(accountId: string, subscriptionId: string): Promise<boolean> {
    return (await withoutBlockingOnLocks(this.db, () => this.sql().delete.run(accountId, subscriptionId))).changes > 0;
  }
}
