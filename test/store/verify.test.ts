import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { PinRecord, TwoFactorApplication, TwoFactorTemplate } from '../../src/core/store/types.js';
import { DEFAULT_CONFIGURATION } from '../../src/verify/read/application.js';
import { cleanupStores, MINUTE, storeDrivers, storePerTest, T0, twoAccounts } from '../helpers/stores.js';

after(cleanupStores);

const CONFIGURATION = DEFAULT_CONFIGURATION;

function pin(accountId: string, overrides: Partial<PinRecord> = {}): PinRecord {
  return {
    accountId,
    pinId: randomBytes(16).toString('hex').toUpperCase(),
    applicationId: 'APP',
    messageId: 'MSG',
    msisdn: '41793026727',
    pinType: 'NUMERIC',
    pinLength: 6,
    pinHash: 'hash',
    createdAt: T0,
    expiresAt: T0 + 15 * MINUTE,
    maxAttempts: 3,
    wrongAttempts: 0,
    allowMultipleVerifications: true,
    sentAt: T0,
    ...overrides,
  };
}

for (const driver of storeDrivers()) {
  describe(`two-factor store on ${driver.name}`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('keeps applications and templates whole, per account', async () => {
      const { a, b } = await twoAccounts(store());
      const application: TwoFactorApplication = {
        accountId: a.id,
        applicationId: 'APP1',
        name: 'Login',
        enabled: true,
        configuration: CONFIGURATION,
        protection: { allowedCountryCodes: ['41'], prefixSendLimit: '100/1h', prefixLength: 6 },
        createdAt: T0,
        updatedAt: T0,
      };
      await store().twoFactorApplications.create(application);
      await store().twoFactorApplications.create({ ...application, applicationId: 'APP2', name: 'Second', protection: undefined, createdAt: T0 + 1 });
      assert.deepEqual(await store().twoFactorApplications.get(a.id, 'APP1'), application);
      assert.equal(await store().twoFactorApplications.get(b.id, 'APP1'), undefined);
      assert.deepEqual((await store().twoFactorApplications.list(a.id)).map((x) => x.name), ['Login', 'Second']);
      assert.equal(await store().twoFactorApplications.update({ ...application, enabled: false, updatedAt: T0 + 5 }), true);
      assert.equal((await store().twoFactorApplications.get(a.id, 'APP1'))?.enabled, false);
      assert.equal(await store().twoFactorApplications.update({ ...application, accountId: b.id }), false);

      const template: TwoFactorTemplate = {
        accountId: a.id,
        applicationId: 'APP1',
        messageId: 'MSG1',
        messageText: 'Your code is {{pin}}',
        pinType: 'NUMERIC',
        pinLength: 6,
        language: 'en',
        speechRate: 1,
        repeatDTMF: '1#',
        createdAt: T0,
        updatedAt: T0,
      };
      await store().twoFactorTemplates.create(template);
      assert.deepEqual(await store().twoFactorTemplates.get(a.id, 'APP1', 'MSG1'), template);
      assert.equal(await store().twoFactorTemplates.get(a.id, 'APP2', 'MSG1'), undefined, 'a template belongs to its application');
      assert.equal(await store().twoFactorTemplates.get(b.id, 'APP1', 'MSG1'), undefined);
      assert.equal(await store().twoFactorTemplates.update({ ...template, pinLength: 4 }), true);
      assert.deepEqual((await store().twoFactorTemplates.list(a.id, 'APP1')).map((t) => t.pinLength), [4]);
    });

    it('verifies a right PIN, counts wrong ones while attempts remain, and tells why it refuses', async () => {
      const { a, b } = await twoAccounts(store());
      const once = pin(a.id, { allowMultipleVerifications: false });
      await store().pins.create(once);
      assert.deepEqual(await store().pins.get(a.id, once.pinId), once);
      assert.equal(await store().pins.verify(b.id, once.pinId, true, T0), undefined, "another account's PIN is unknown");

      const wrong = await store().pins.verify(a.id, once.pinId, false, T0 + 1);
      assert.deepEqual([wrong?.result, wrong?.pin.wrongAttempts], ['wrong', 1]);
      const right = await store().pins.verify(a.id, once.pinId, true, T0 + 2);
      assert.deepEqual([right?.result, right?.pin.verifiedAt], ['verified', T0 + 2]);
      assert.equal((await store().pins.verify(a.id, once.pinId, true, T0 + 3))?.result, 'already-verified');

      const many = pin(a.id);
      await store().pins.create(many);
      await store().pins.verify(a.id, many.pinId, true, T0 + 1);
      const again = await store().pins.verify(a.id, many.pinId, true, T0 + 2);
      assert.deepEqual([again?.result, again?.pin.verifiedAt], ['verified', T0 + 1], 'verified again, first time kept');

      const expiring = pin(a.id);
      await store().pins.create(expiring);
      assert.equal((await store().pins.verify(a.id, expiring.pinId, true, expiring.expiresAt))?.result, 'expired');
    });

    it('stores PINs sent at once apart: one that cannot be stored fails alone', async () => {
      const { a } = await twoAccounts(store());
      const first = pin(a.id);
      await store().pins.create(first);
      const [again, other] = await Promise.allSettled([store().pins.create({ ...first, msisdn: '41790000001' }), store().pins.create(pin(a.id, { pinId: 'OTHER' }))]);
      assert.equal(again.status, 'rejected', 'a pinId taken already');
      assert.equal(other.status, 'fulfilled');
      assert.equal((await store().pins.get(a.id, 'OTHER'))?.pinId, 'OTHER');
      assert.equal((await store().pins.get(a.id, first.pinId))?.msisdn, first.msisdn);
    });

    it('never counts more wrong guesses than attempts, however many come at once, and then refuses the right PIN', async () => {
      const { a } = await twoAccounts(store());
      const target = pin(a.id, { maxAttempts: 5 });
      await store().pins.create(target);
      const outcomes = await Promise.all(Array.from({ length: 100 }, () => store().pins.verify(a.id, target.pinId, false, T0 + 1)));
      assert.equal(outcomes.filter((o) => o?.result === 'wrong').length, 5);
      assert.equal(outcomes.filter((o) => o?.result === 'exhausted').length, 95);
      assert.equal((await store().pins.get(a.id, target.pinId))?.wrongAttempts, 5);
      assert.equal((await store().pins.verify(a.id, target.pinId, true, T0 + 2))?.result, 'exhausted');
    });

    it('marks resends, lists a number\'s PINs newest first with a verified filter, and purges old ones', async () => {
      const { a } = await twoAccounts(store());
      const first = pin(a.id, { createdAt: T0 });
      const second = pin(a.id, { createdAt: T0 + 10, expiresAt: T0 + 15 * MINUTE + 10 });
      const other = pin(a.id, { msisdn: '41790000000' });
      for (const p of [first, second, other]) await store().pins.create(p);
      await store().pins.verify(a.id, first.pinId, true, T0 + 20);
      await store().pins.markSent(a.id, second.pinId, T0 + 30, 'sms-2');
      const listed = await store().pins.listForMsisdn(a.id, 'APP', '41793026727', {}, 10);
      assert.deepEqual(listed.map((p) => [p.pinId, p.sentAt, p.externalMessageId]), [
        [second.pinId, T0 + 30, 'sms-2'],
        [first.pinId, T0, undefined],
      ]);
      assert.deepEqual((await store().pins.listForMsisdn(a.id, 'APP', '41793026727', { verified: true }, 10)).map((p) => p.pinId), [first.pinId]);
      assert.equal(await store().pins.purgeBefore(T0 + 5), 0, 'a PIN is kept while it lives');
      assert.equal(await store().pins.purgeBefore(T0 + 15 * MINUTE + 5), 2);
      assert.equal(await store().pins.get(a.id, second.pinId) !== undefined, true);
    });

    it('counts uses of a fixed window up to its limit, starts afresh in the next, and purges ended windows', async () => {
      const window = 60_000;
      const start = T0 - (T0 % window);
      const takes = await Promise.all(Array.from({ length: 10 }, () => store().rateWindows.take('send:app', window, 3, start + 10)));
      assert.equal(takes.filter(Boolean).length, 3);
      assert.equal(await store().rateWindows.take('send:other', window, 3, start + 20), true, 'keys count apart');
      assert.equal(await store().rateWindows.take('send:app', window, 3, start + window), true, 'a new window');
      assert.equal(await store().rateWindows.take('send:app', window, 0, start), false);
      assert.equal(await store().rateWindows.purgeBefore(start + window + 1), 2);
      assert.equal(await store().rateWindows.take('send:app', window, 3, start + 30), true, 'a purged window starts again');
    });

    it('takes several windows all or none, naming the first that is full', async () => {
      const window = 60_000;
      const takes = [
        { key: 'number', windowMs: window, limit: 2 },
        { key: 'app', windowMs: window, limit: 3 },
      ];
      assert.equal(await store().rateWindows.takeAll(takes, T0), -1);
      assert.equal(await store().rateWindows.takeAll(takes, T0), -1);
      assert.equal(await store().rateWindows.takeAll(takes, T0), 0, 'the number has had its two');
      // Had the refused take counted the application's use, its third would be gone.
      assert.equal(await store().rateWindows.takeAll([{ key: 'app', windowMs: window, limit: 3 }], T0), -1);
      assert.equal(await store().rateWindows.takeAll([{ key: 'other', windowMs: window, limit: 5 }, { key: 'app', windowMs: window, limit: 3 }], T0), 1);
      assert.equal(await store().rateWindows.take('other', window, 1, T0), true, 'the refused set gave back its first take');
      assert.equal(await store().rateWindows.takeAll([{ key: 'zero', windowMs: window, limit: 0 }], T0), 0);
    });

    it('creates a secret once and gives every caller the same', async () => {
      const values = await Promise.all(Array.from({ length: 5 }, (_, i) => store().secrets.getOrCreate('pin-key', () => `value-${i}`)));
      assert.equal(new Set(values).size, 1);
      assert.equal(await store().secrets.getOrCreate('pin-key', () => 'later'), values[0]);
    });
  });
}
