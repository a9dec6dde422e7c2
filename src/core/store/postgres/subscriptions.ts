import type { Subscription, SubscriptionStore } from '../types.js';
import { jsonText, opt, type Row, type Sql } from './shared.js';

function toSubscription(r: Row): Subscription {
  const s: Subscription = {
    accountId: r.account_id,
    subscriptionId: r.subscription_id,
    channel: r.channel,
    events: r.events,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.name !== null) s.name = r.name;
  if (r.profile !== null) s.profile = r.profile;
  if (r.criteria !== null) s.criteria = r.criteria;
  if (r.resources !== null) s.resources = r.resources;
  return s;
}

export class PgSubscriptionStore implements SubscriptionStore {
  constructor(private readonly sql: Sql) {}

  async create(s: Subscription): Promise<'created' | 'duplicate'> {
    const rows = await this.sql`
      INSERT INTO subscriptions (account_id, subscription_id, channel, name, events, profile, criteria, resources,
                                 created_at, updated_at)
      VALUES (${s.accountId}, ${s.subscriptionId}, ${s.channel}, ${opt(s.name)}, ${jsonText(s.events)}::text::jsonb,
              ${jsonText(s.profile)}::text::jsonb, ${jsonText(s.criteria)}::text::jsonb,
              ${jsonText(s.resources)}::text::jsonb, ${s.createdAt}, ${s.updatedAt})
      ON CONFLICT (account_id, subscription_id) DO NOTHING
      RETURNING subscription_id`;
    return rows.length > 0 ? 'created' : 'duplicate';
  }

  async get(accountId: string, subscriptionId: string): Promise<Subscription | undefined> {
    const rows = await this.sql`
      SELECT * FROM subscriptions WHERE account_id = ${accountId} AND subscription_id = ${subscriptionId}`;
    return rows.length > 0 ? toSubscription(rows[0]!) : undefined;
  }

  async list(accountId: string, channel?: string): Promise<Subscription[]> {
    const rows =
      channel === undefined
        ? await this.sql`
            SELECT * FROM subscriptions WHERE account_id = ${accountId} ORDER BY created_at, subscription_id`
        : await this.sql`
            SELECT * FROM subscriptions WHERE account_id = ${accountId} AND channel = ${channel}
            ORDER BY created_at, subscription_id`;
    return rows.map(toSubscription);
  }

  async update(s: Subscription): Promise<boolean> {
    const rows = await this.sql`
      UPDATE subscriptions SET
        channel = ${s.channel}, name = ${opt(s.name)}, events = ${jsonText(s.events)}::text::jsonb,
        profile = ${jsonText(s.profile)}::text::jsonb, criteria = ${jsonText(s.criteria)}::text::jsonb,
        resources = ${jsonText(s.resources)}::text::jsonb, updated_at = ${s.updatedAt}
      WHERE account_id = ${s.accountId} AND subscription_id = ${s.subscriptionId}
      RETURNING subscription_id`;
    return rows.length > 0;
  }

  async delete(accountId: string, subscriptionId: string): Promise<boolean> {
    const rows = await this.sql`
      DELETE FROM subscriptions WHERE account_id = ${accountId} AND subscription_id = ${subscriptionId}
      RETURNING subscription_id`;
    return rows.length > 0;
  }
}
