import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { cleanupStores, storeDrivers, storePerTest, T0 } from '../helpers/stores.js';

after(cleanupStores);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

for (const driver of storeDrivers()) {
  describe(driver.name, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    describe('accounts', () => {
      it('ensure creates an account once and returns the same one afterwards', async () => {
        const created = await store().accounts.ensure('acme', T0);
        assert.match(created.id, UUID);
        assert.deepEqual(created, { id: created.id, name: 'acme', createdAt: T0 });

        const again = await store().accounts.ensure('acme', T0 + 1000);
        assert.deepEqual(again, created);
        const other = await store().accounts.ensure('globex', T0);
        assert.notEqual(other.id, created.id);
      });

      it('get and findByName find existing accounts only', async () => {
        const account = await store().accounts.ensure('acme', T0);
        assert.deepEqual(await store().accounts.get(account.id), account);
        assert.deepEqual(await store().accounts.findByName('acme'), account);
        assert.equal(await store().accounts.get('00000000-0000-4000-8000-000000000000'), undefined);
        assert.equal(await store().accounts.findByName('nobody'), undefined);
      });
    });

    describe('api keys', () => {
      it('create returns the record and findByLookup finds every key with that lookup', async () => {
        const account = await store().accounts.ensure('acme', T0);
        const key = { id: 'key-1', accountId: account.id, name: 'default', lookup: 'abcd1234', hash: 'h1', createdAt: T0 };
        assert.deepEqual(await store().keys.create(key), key);
        const twin = { ...key, id: 'key-2', hash: 'h2', createdAt: T0 + 1 };
        await store().keys.create(twin);
        await store().keys.create({ ...key, id: 'key-3', lookup: 'zzzz9999', hash: 'h3' });

        assert.deepEqual(await store().keys.findByLookup('abcd1234'), [key, twin]);
        assert.deepEqual(await store().keys.findByLookup('nope'), []);
      });

      it('list returns keys of every account', async () => {
        const a = await store().accounts.ensure('acme', T0);
        const b = await store().accounts.ensure('globex', T0);
        await store().keys.create({ id: 'k-a', accountId: a.id, name: 'a', lookup: 'la', hash: 'ha', createdAt: T0 });
        await store().keys.create({ id: 'k-b', accountId: b.id, name: 'b', lookup: 'lb', hash: 'hb', createdAt: T0 + 1 });
        assert.deepEqual((await store().keys.list()).map((k) => k.id), ['k-a', 'k-b']);
      });

      it('revoke marks an active key once and countActive counts per account', async () => {
        const a = await store().accounts.ensure('acme', T0);
        const b = await store().accounts.ensure('globex', T0);
        for (const id of ['a1', 'a2']) {
          await store().keys.create({ id, accountId: a.id, name: id, lookup: id, hash: id, createdAt: T0 });
        }
        await store().keys.create({ id: 'b1', accountId: b.id, name: 'b1', lookup: 'b1', hash: 'b1', createdAt: T0 });
        assert.equal(await store().keys.countActive(a.id), 2);

        assert.equal(await store().keys.revoke('a1', T0 + 5), true);
        assert.equal(await store().keys.revoke('a1', T0 + 6), false);
        assert.equal(await store().keys.revoke('missing', T0), false);

        const [revoked] = await store().keys.findByLookup('a1');
        assert.equal(revoked?.revokedAt, T0 + 5);
        const [active] = await store().keys.findByLookup('a2');
        assert.equal(active !== undefined && 'revokedAt' in active, false);
        assert.equal(await store().keys.countActive(a.id), 1);
        assert.equal(await store().keys.countActive(b.id), 1);
      });
    });

    describe('migrate', () => {
      it('applies nothing the second time', async () => {
        assert.deepEqual(await store().migrate(), []);
        assert.deepEqual(await store().migrate(), []);
      });
    });
  });
}
