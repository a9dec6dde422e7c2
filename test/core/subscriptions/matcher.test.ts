import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { SubscriptionMatcher } from '../../../src/core/subscriptions/matcher.js';
import type { Subscription } from '../../../src/core/store/types.js';
import { cleanupStores, storeDrivers, storePerTest, T0, twoAccounts } from '../../helpers/stores.js';

after(cleanupStores);

function subscription(accountId: string, subscriptionId: string, overrides: Partial<Subscription> = {}): Subscription {
  return {
    accountId,
    subscriptionId,
    channel: 'SMS',
    events: ['DELIVERY', 'INBOUND_MESSAGE'],
    profile: { profileId: `p-${subscriptionId}`, webhook: { notifyUrl: `https://hooks.example.com/${subscriptionId}` } },
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

for (const driver of storeDrivers()) {
  describe(`SubscriptionMatcher on ${driver.name}`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('matches by channel, event, criteria pairs and resources', async () => {
      const { a } = await twoAccounts(store());
      const create = (s: Subscription) => store().subscriptions.create(s);
      await create(subscription(a.id, 'any'));
      await create(subscription(a.id, 'dlr-only', { events: ['DELIVERY'] }));
      await create(subscription(a.id, 'other-channel', { channel: 'RCS' }));
      await create(subscription(a.id, 'prod-app', { criteria: [{ applicationId: 'prod' }] }));
      await create(subscription(a.id, 'pair', { criteria: [{ applicationId: 'prod', entityId: 'e1' }, { entityId: 'e9' }] }));
      await create(subscription(a.id, 'number', { resources: [{ resource: '+385921004026' }] }));
      const matcher = new SubscriptionMatcher({ store: store(), clock: new ManualClock(T0) });
      const ids = async (event: 'DELIVERY' | 'INBOUND_MESSAGE', attributes: Record<string, string>) =>
        (await matcher.targetsFor(a.id, 'SMS', event, attributes)).map((t) => t.subscriptionId).sort();

      assert.deepEqual(await ids('INBOUND_MESSAGE', { to: '385921004026' }), ['any', 'number']);
      assert.deepEqual(await ids('INBOUND_MESSAGE', { to: '41790000000' }), ['any']);
      assert.deepEqual(await ids('DELIVERY', {}), ['any', 'dlr-only']);
      assert.deepEqual(await ids('DELIVERY', { applicationId: 'prod' }), ['any', 'dlr-only', 'prod-app']);
      assert.deepEqual(await ids('DELIVERY', { applicationId: 'prod', entityId: 'e1' }), ['any', 'dlr-only', 'pair', 'prod-app']);
      assert.deepEqual(await ids('DELIVERY', { applicationId: 'test', entityId: 'e9' }), ['any', 'dlr-only', 'pair']);
      assert.deepEqual(await ids('DELIVERY', { applicationId: 'test', entityId: 'e1' }), ['any', 'dlr-only']);
    });

    it('matches call events on VOICE_VIDEO by callsConfigurationId as well as applicationId and entityId', async () => {
      const { a } = await twoAccounts(store());
      const voice = (id: string, overrides: Partial<Subscription> = {}) =>
        store().subscriptions.create(subscription(a.id, id, { channel: 'VOICE_VIDEO', events: ['CALL_STARTED', 'CALL_FINISHED'], ...overrides }));
      await voice('every-call');
      await voice('conf-1', { criteria: [{ callsConfigurationId: 'conf-1' }] });
      await voice('conf-2-of-app', { criteria: [{ applicationId: 'app', callsConfigurationId: 'conf-2' }] });
      await voice('app-only', { criteria: [{ applicationId: 'app' }] });
      await voice('finished-only', { events: ['CALL_FINISHED'] });
      await store().subscriptions.create(subscription(a.id, 'sms', { criteria: [{ callsConfigurationId: 'conf-1' }] }));
      const matcher = new SubscriptionMatcher({ store: store(), clock: new ManualClock(T0) });
      const ids = async (event: 'CALL_STARTED' | 'CALL_FINISHED', attributes: Record<string, string>) =>
        (await matcher.targetsFor(a.id, 'VOICE_VIDEO', event, attributes)).map((t) => t.subscriptionId).sort();

      assert.deepEqual(await ids('CALL_STARTED', {}), ['every-call']);
      assert.deepEqual(await ids('CALL_STARTED', { callsConfigurationId: 'conf-1' }), ['conf-1', 'every-call']);
      assert.deepEqual(await ids('CALL_STARTED', { callsConfigurationId: 'conf-2' }), ['every-call']);
      assert.deepEqual(await ids('CALL_STARTED', { callsConfigurationId: 'conf-2', applicationId: 'app' }), ['app-only', 'conf-2-of-app', 'every-call']);
      assert.deepEqual(await ids('CALL_FINISHED', { callsConfigurationId: 'conf-1', applicationId: 'app' }), [
        'app-only',
        'conf-1',
        'every-call',
        'finished-only',
      ]);
      assert.deepEqual(
        (await matcher.targetsFor(a.id, 'SMS', 'DELIVERY', { callsConfigurationId: 'conf-1' })).map((t) => t.subscriptionId),
        ['sms'],
        'channels stay apart',
      );
    });

    it('a snapshot matches synchronously what targetsFor matches, read through the same cache', async () => {
      const { a } = await twoAccounts(store());
      const clock = new ManualClock(T0);
      const matcher = new SubscriptionMatcher({ store: store(), clock, cacheMs: 1000 });
      const callStarted = { callsConfigurationId: 'conf-1' };
      const voice = (id: string) =>
        subscription(a.id, id, { channel: 'VOICE_VIDEO', events: ['CALL_STARTED'], criteria: [{ callsConfigurationId: 'conf-1' }] });
      await store().subscriptions.create(voice('first'));
      await store().subscriptions.create(subscription(a.id, 'sms'));

      const snapshot = await matcher.snapshot(a.id);
      const targets = snapshot.targetsFor('VOICE_VIDEO', 'CALL_STARTED', callStarted);
      assert.ok(Array.isArray(targets), 'an array, not a promise');
      assert.deepEqual(targets, [{ url: 'https://hooks.example.com/first', subscriptionId: 'first' }]);
      assert.deepEqual(await matcher.targetsFor(a.id, 'VOICE_VIDEO', 'CALL_STARTED', callStarted), targets);
      assert.deepEqual(snapshot.targetsFor('SMS', 'DELIVERY', {}).map((t) => t.subscriptionId), ['sms']);
      assert.deepEqual(snapshot.targetsFor('VOICE_VIDEO', 'CALL_STARTED', { callsConfigurationId: 'conf-2' }), []);

      await store().subscriptions.create(voice('second'));
      const cached = await matcher.snapshot(a.id);
      assert.equal(cached.targetsFor('VOICE_VIDEO', 'CALL_STARTED', callStarted).length, 1, 'taken from the cache');
      matcher.invalidate(a.id);
      const fresh = await matcher.snapshot(a.id);
      assert.deepEqual(fresh.targetsFor('VOICE_VIDEO', 'CALL_STARTED', callStarted).map((t) => t.subscriptionId).sort(), ['first', 'second']);
      assert.equal(snapshot.targetsFor('VOICE_VIDEO', 'CALL_STARTED', callStarted).length, 1, 'a snapshot does not change');
    });

    it('returns URL and outbox security, and only the account asked for', async () => {
      const { a, b } = await twoAccounts(store());
      await store().subscriptions.create(
        subscription(a.id, 'basic', {
          profile: {
            profileId: 'P1',
            webhook: { notifyUrl: 'https://a.example.com/hook' },
            security: { authId: 'A1', type: 'BASIC', credentials: { username: 'u', password: 'p' } },
          },
        }),
      );
      await store().subscriptions.create(
        subscription(b.id, 'hmac', {
          profile: {
            profileId: 'P2',
            webhook: { notifyUrl: 'https://b.example.com/hook' },
            security: { authId: 'A2', type: 'HMAC', credentials: { secretKey: 's3', algorithm: 'HMAC_SHA_1' } },
          },
        }),
      );
      const matcher = new SubscriptionMatcher({ store: store(), clock: new ManualClock(T0) });
      assert.deepEqual(await matcher.targetsFor(a.id, 'SMS', 'DELIVERY', {}), [
        { url: 'https://a.example.com/hook', subscriptionId: 'basic', security: { type: 'BASIC', username: 'u', password: 'p' } },
      ]);
      assert.deepEqual(await matcher.targetsFor(b.id, 'SMS', 'DELIVERY', {}), [
        { url: 'https://b.example.com/hook', subscriptionId: 'hmac', security: { type: 'HMAC', secret: 's3', algorithm: 'HMAC_SHA_1' } },
      ]);
    });

    it('caches per account until cacheMs passes or the account is invalidated', async () => {
      const { a } = await twoAccounts(store());
      const clock = new ManualClock(T0);
      const matcher = new SubscriptionMatcher({ store: store(), clock, cacheMs: 1000 });
      assert.deepEqual(await matcher.targetsFor(a.id, 'SMS', 'DELIVERY', {}), []);

      await store().subscriptions.create(subscription(a.id, 'late'));
      assert.deepEqual(await matcher.targetsFor(a.id, 'SMS', 'DELIVERY', {}), [], 'still cached');
      clock.advance(1000);
      assert.equal((await matcher.targetsFor(a.id, 'SMS', 'DELIVERY', {})).length, 1, 'expired');

      await store().subscriptions.delete(a.id, 'late');
      assert.equal((await matcher.targetsFor(a.id, 'SMS', 'DELIVERY', {})).length, 1, 'cached again');
      matcher.invalidate(a.id);
      assert.deepEqual(await matcher.targetsFor(a.id, 'SMS', 'DELIVERY', {}), []);
    });
  });
}
