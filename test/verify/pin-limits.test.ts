import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createApplication, createFlow, createTemplate, LOOSE, legacyError, phoneMessages, readPin, sendPin, verify } from './verify-fixture.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

describe('PIN limits, life and attempts on an injected clock', () => {
  const clock = new ManualClock(Date.UTC(2025, 5, 1));
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  it('expires a PIN after pinTimeToLive (TTL_EXPIRED) and refuses to resend it', async () => {
    const { applicationId, messageId } = await createFlow(server, { ...LOOSE, pinTimeToLive: '10m' });
    const { pinId } = (await sendPin(server, { applicationId, messageId, to: '41793027001' })).json();
    const pin = await readPin(server, '41793027001');
    await clock.advanceAsync(10 * MINUTE - 1);
    await clock.advanceAsync(1);
    assert.deepEqual((await verify(server, pinId, pin)).json(), { pinId, msisdn: '41793027001', verified: false, attemptsRemaining: 10, pinError: 'TTL_EXPIRED' });
    assert.deepEqual(legacyError(await server.request('POST', `/2fa/2/pin/${pinId}/resend`, { body: {} })).fields, ['pinId']);
  });

  it('limits verifications per number with verifyPinLimit (429, no attempt counted) until the window passes', async () => {
    const { applicationId, messageId } = await createFlow(server, { ...LOOSE, verifyPinLimit: '1/3s' });
    const { pinId } = (await sendPin(server, { applicationId, messageId, to: '41793027002' })).json();
    const pin = await readPin(server, '41793027002');
    const wrong = pin === '000000' ? '111111' : '000000';
    assert.equal((await verify(server, pinId, wrong)).json().attemptsRemaining, 9);
    const limited = await verify(server, pinId, pin);
    assert.deepEqual(legacyError(limited), { status: 429, messageId: 'TOO_MANY_REQUESTS', fields: [] });
    assert.deepEqual(limited.json().requestError.serviceException, { messageId: 'TOO_MANY_REQUESTS', text: 'Too many requests: verifyPinLimit 1/3s reached for this number' });
    assert.equal(limited.headers.get('retry-after'), String(Math.ceil((3 * SECOND - (clock.now() % (3 * SECOND))) / SECOND)), 'the seconds left of the 3 s window');
    await clock.advanceAsync(3 * SECOND);
    assert.equal((await verify(server, pinId, wrong)).json().attemptsRemaining, 8, 'the refused verification counted no attempt');
    await clock.advanceAsync(3 * SECOND);
    assert.equal((await verify(server, pinId, pin)).json().verified, true);
  });

  it('uses up pinAttempts: the right PIN is then refused with NO_MORE_PIN_ATTEMPTS; a PIN verifies once unless multiple verifications are allowed', async () => {
    const { applicationId, messageId } = await createFlow(server, { ...LOOSE, pinAttempts: 3, allowMultiplePinVerifications: false });
    const { pinId } = (await sendPin(server, { applicationId, messageId, to: '41793027003' })).json();
    const pin = await readPin(server, '41793027003');
    const wrong = pin === '000000' ? '111111' : '000000';
    const remaining = [];
    for (let i = 0; i < 3; i++) remaining.push((await verify(server, pinId, wrong)).json());
    assert.deepEqual(remaining.map((r) => [r.pinError, r.attemptsRemaining]), [['WRONG_PIN', 2], ['WRONG_PIN', 1], ['WRONG_PIN', 0]]);
    assert.deepEqual((await verify(server, pinId, pin)).json(), { pinId, msisdn: '41793027003', verified: false, attemptsRemaining: 0, pinError: 'NO_MORE_PIN_ATTEMPTS' });

    const second = (await sendPin(server, { applicationId, messageId, to: '41793027004' })).json();
    const secondPin = await readPin(server, '41793027004');
    assert.equal((await verify(server, second.pinId, secondPin)).json().verified, true);
    assert.deepEqual((await verify(server, second.pinId, secondPin)).json().pinError, 'NO_MORE_PIN_ATTEMPTS', 'verified once already');
  });

  it('limits sends per number and per application with 429, sends nothing refused, resends count, and windows reopen', async () => {
    const { applicationId, messageId } = await createFlow(server, { verifyPinLimit: '100/1s', sendPinPerPhoneNumberLimit: '3/1m', sendPinPerApplicationLimit: '5/1m' });
    // Windows start at multiples of their length: begin with a minute's window.
    await clock.advanceAsync(MINUTE - (clock.now() % MINUTE));
    const first = (await sendPin(server, { applicationId, messageId, to: '41793027005' })).json();
    assert.equal((await server.request('POST', `/2fa/2/pin/${first.pinId}/resend`, { body: {} })).status, 200);
    assert.equal((await sendPin(server, { applicationId, messageId, to: '41793027005' })).status, 200);
    await clock.advanceAsync(30 * SECOND);
    const perNumber = await sendPin(server, { applicationId, messageId, to: '41793027005' });
    assert.deepEqual(legacyError(perNumber), { status: 429, messageId: 'TOO_MANY_REQUESTS', fields: [] });
    assert.equal(perNumber.json().requestError.serviceException.text, 'Too many requests: sendPinPerPhoneNumberLimit 3/1m reached for this number');
    assert.equal(perNumber.headers.get('retry-after'), '30');
    assert.equal((await server.request('POST', `/2fa/2/pin/${first.pinId}/resend/voice`, { body: {} })).status, 429, 'a resend meets the same limit');
    await readPin(server, '41793027005', 3);
    assert.equal((await phoneMessages(server, '41793027005')).length, 3, 'the refused sends sent nothing');

    assert.equal((await sendPin(server, { applicationId, messageId, to: '41793027006' })).status, 200);
    assert.equal((await sendPin(server, { applicationId, messageId, to: '41793027007' })).status, 200);
    await clock.advanceAsync(20 * SECOND + 500);
    const perApplication = await sendPin(server, { applicationId, messageId, to: '41793027008' });
    assert.equal(perApplication.status, 429, 'the application sent its 5');
    assert.equal(perApplication.json().requestError.serviceException.text, 'Too many requests: sendPinPerApplicationLimit 5/1m reached');
    assert.equal(perApplication.headers.get('retry-after'), '10', '9.5 s rounded up');
    assert.equal((await server.request('GET', '/sms/3/logs?destination=41793027008')).json().results.length, 0);

    await clock.advanceAsync(9_500);
    assert.equal((await sendPin(server, { applicationId, messageId, to: '41793027005' })).status, 200, 'the next minute opens new windows');
  });

  it('counts a send to a number the lookup finds unreachable against the send limits', async () => {
    const { applicationId, messageId } = await createFlow(server, { ...LOOSE, sendPinPerPhoneNumberLimit: '1/1h' });
    const unreachable = await sendPin(server, { applicationId, messageId, to: '41793029001' });
    assert.deepEqual([unreachable.status, unreachable.json().smsStatus], [200, 'MESSAGE_NOT_SENT']);
    const again = await sendPin(server, { applicationId, messageId, to: '41793029001' });
    assert.deepEqual(legacyError(again), { status: 429, messageId: 'TOO_MANY_REQUESTS', fields: [] });
  });

  it('refuses a disabled application, and still verifies the PINs it sent before', async () => {
    const { applicationId, messageId } = await createFlow(server);
    const { pinId } = (await sendPin(server, { applicationId, messageId, to: '41793027009' })).json();
    const pin = await readPin(server, '41793027009');
    const disabled = await server.request('PUT', `/2fa/2/applications/${applicationId}`, { body: { name: 'Login', enabled: false } });
    assert.equal(disabled.json().enabled, false);
    assert.deepEqual(legacyError(await sendPin(server, { applicationId, messageId, to: '41793027010' })), { status: 400, messageId: 'BAD_REQUEST', fields: ['applicationId'] });
    assert.deepEqual(legacyError(await sendPin(server, { applicationId, messageId, to: '41793027010' }, '/2fa/2/pin/voice')).fields, ['applicationId']);
    assert.equal((await server.request('POST', `/2fa/2/pin/${pinId}/resend`, { body: {} })).status, 400);
    assert.equal((await phoneMessages(server, '41793027010')).length, 0);
    assert.equal((await verify(server, pinId, pin)).json().verified, true);
  });

  it("applies the application's protections: denied and allowed country codes, and a cap on sends to one prefix", async () => {
    const applicationId = await createApplication(server);
    const messageId = await createTemplate(server, applicationId);
    const path = `/switchboard/1/2fa/applications/${applicationId}/protection`;
    assert.deepEqual((await server.request('GET', path)).json(), { allowedCountryCodes: [], deniedCountryCodes: [], prefixLength: 6 }, 'off until set');
    const set = await server.request('PUT', path, { body: { allowedCountryCodes: ['41', '385'], deniedCountryCodes: ['3851'], prefixSendLimit: '2/1h', prefixLength: 7 } });
    assert.deepEqual(set.json(), { allowedCountryCodes: ['41', '385'], deniedCountryCodes: ['3851'], prefixSendLimit: '2/1h', prefixLength: 7 });

    assert.deepEqual(legacyError(await sendPin(server, { applicationId, messageId, to: '447700900123' })).fields, ['to'], 'not an allowed country');
    assert.deepEqual(legacyError(await sendPin(server, { applicationId, messageId, to: '385191234567' })).fields, ['to'], 'a denied code');
    assert.equal((await sendPin(server, { applicationId, messageId, to: '385921234567' })).status, 200);
    assert.equal((await sendPin(server, { applicationId, messageId, to: '41793027101' })).status, 200);
    assert.equal((await sendPin(server, { applicationId, messageId, to: '41793027102' })).status, 200);
    assert.equal((await sendPin(server, { applicationId, messageId, to: '41793027103' })).status, 429, 'a third send to prefix 4179302');
    assert.equal((await sendPin(server, { applicationId, messageId, to: '41793037103' })).status, 200, 'another prefix');

    assert.deepEqual(legacyError(await server.request('PUT', path, { body: { allowedCountryCodes: ['+41'] } })).fields, ['allowedCountryCodes[0]']);
    assert.deepEqual(legacyError(await server.request('PUT', path, { body: { prefixSendLimit: 'lots' } })).fields, ['prefixSendLimit']);
    assert.deepEqual((await server.request('PUT', path, { body: {} })).json(), { allowedCountryCodes: [], deniedCountryCodes: [], prefixLength: 6 }, 'an empty body turns them off');
    assert.equal((await sendPin(server, { applicationId, messageId, to: '447700900123' })).status, 200);
  });

  it('counts no more than pinAttempts of 100 concurrent wrong guesses, and then refuses the right PIN', async () => {
    const { applicationId, messageId } = await createFlow(server, { ...LOOSE, pinAttempts: 10 });
    const { pinId } = (await sendPin(server, { applicationId, messageId, to: '41793027011' })).json();
    const pin = await readPin(server, '41793027011');
    const wrong = pin === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 100 }, () => verify(server, pinId, wrong)));
    const errors = answers.map((a) => a.json().pinError);
    assert.equal(errors.filter((e) => e === 'WRONG_PIN').length, 10);
    assert.equal(errors.filter((e) => e === 'NO_MORE_PIN_ATTEMPTS').length, 90);
    assert.deepEqual(answers.map((a) => a.json().attemptsRemaining).filter((n) => n > 0).sort((a, b) => b - a), [9, 8, 7, 6, 5, 4, 3, 2, 1]);
    assert.equal((await verify(server, pinId, pin)).json().pinError, 'NO_MORE_PIN_ATTEMPTS');
    assert.equal((await server.ctx.store.pins.get((await server.ctx.store.accounts.ensure('default', 0)).id, pinId))?.wrongAttempts, 10);
  });
});
