import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Subscription } from '../../src/core/store/types.js';
import { cleanupStores, storeDrivers, storePerTest, T0, twoAccounts } from '../helpers/stores.js';

after(cleanupStores);

function subscription(accountId: string, overrides: Partial<Subscription> = {}): Subscription {
  return {
    accountId,
    subscriptionId: 'sub-1',
    channel: 'SMS',
    name: 'Delivery reports',
    events: ['DELIVERY', 'MO'],
    profile: { profileId: 'p-1', webhook: { notifyUrl: 'https://hooks.example.com' }, security: { type: 'BASIC' } },
    criteria: [{ sender: 'InfoSMS' }],
    resources: [{ type: 'NUMBER', value: '447860099299' }],
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

for (const driver of storeDrivers()) {
  describe(driver.name, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('creates and reads back a subscription with every field', async () => {
      const { a } = await twoAccounts(store());
      const full = subscription(a.id);
      const { name: _n, profile: _p, criteria: _c, resources: _r, ...minimal } = subscription(a.id, { subscriptionId: 'sub-2' });

      assert.equal(await store().subscriptions.create(full), 'created');
      assert.equal(await store().subscriptions.create(minimal), 'created');
      assert.deepEqual(await store().subscriptions.get(a.id, 'sub-1'), full);
      assert.deepEqual(await store().subscriptions.get(a.id, 'sub-2'), minimal);
      assert.equal(await store().subscriptions.get(a.id, 'missing'), undefined);
    });

    it('reports a duplicate id in the same account and keeps the original', async () => {
      const { a, b } = await twoAccounts(store());
      const original = subscription(a.id);
      await store().subscriptions.create(original);

      assert.equal(await store().subscriptions.create(subscription(a.id, { name: 'other' })), 'duplicate');
      assert.deepEqual(await store().subscriptions.get(a.id, 'sub-1'), original);
      assert.equal(await store().subscriptions.create(subscription(b.id)), 'created');
    });

    it('lists an account\'s subscriptions, optionally by channel', async () => {
      const { a, b } = await twoAccounts(store());
      await store().subscriptions.create(subscription(a.id, { subscriptionId: 's1', createdAt: T0 }));
      await store().subscriptions.create(subscription(a.id, { subscriptionId: 's2', channel: 'RCS', createdAt: T0 + 1 }));
      await store().subscriptions.create(subscription(a.id, { subscriptionId: 's3', createdAt: T0 + 2 }));
      await store().subscriptions.create(subscription(b.id, { subscriptionId: 's4' }));

      const ids = (list: Subscription[]) => list.map((s) => s.subscriptionId);
      assert.deepEqual(ids(await store().subscriptions.list(a.id)), ['s1', 's2', 's3']);
      assert.deepEqual(ids(await store().subscriptions.list(a.id, 'SMS')), ['s1', 's3']);
      assert.deepEqual(ids(await store().subscriptions.list(b.id)), ['s4']);
      assert.deepEqual(await store().subscriptions.list(a.id, 'VOICE'), []);
    });

    it('updates an existing subscription only, keeping createdAt', async () => {
      const { a, b } = await twoAccounts(store());
      await store().subscriptions.create(subscription(a.id));
      const changed = subscription(a.id, { name: 'Renamed', events: ['DELIVERY'], criteria: undefined, updatedAt: T0 + 5 });

      assert.equal(await store().subscriptions.update({ ...changed, createdAt: T0 + 99 }), true);
      const { criteria: _dropped, ...expected } = changed;
      assert.deepEqual(await store().subscriptions.get(a.id, 'sub-1'), expected);
      assert.equal(await store().subscriptions.update(subscription(a.id, { subscriptionId: 'missing' })), false);
      assert.equal(await store().subscriptions.update(subscription(b.id)), false);
    });

    it('deletes within the account only', async () => {
      const { a, b } = await twoAccounts(store());
      await store().subscriptions.create(subscription(a.id));

      assert.equal(await store().subscriptions.delete(b.id, 'sub-1'), false);
      assert.equal(await store().subscriptions.delete(a.id, 'sub-1'), true);
      assert.equal(await store().subscriptions.delete(a.id, 'sub-1'), false);
      assert.equal(await store().subscriptions.get(a.id, 'sub-1'), undefined);
    });
  });
}
