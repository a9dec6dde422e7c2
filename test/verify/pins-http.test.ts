import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { eventually, startTestServer, type TestServer } from '../helpers/server.js';
import { createFlow, legacyError, phoneMessages, readPin, sendPin, verify } from './verify-fixture.js';

describe('PINs over HTTP: sent by SMS and voice, resent, verified', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  before(async () => {
    server = await startTestServer();
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  it('sends an SMS PIN the phone shows, verifies a wrong PIN with WRONG_PIN and the right one, and lists the verification', async () => {
    const { applicationId, messageId } = await createFlow(server, undefined, { messageText: 'Hi {{name}}, your code is {{pin}}. {{unknown}}' });
    const sent = await sendPin(server, { applicationId, messageId, to: '+41 79 302 6701', placeholders: { name: 'Ana' } });
    assert.equal(sent.status, 200, sent.text);
    const answer = sent.json();
    assert.match(answer.pinId, /^[0-9A-F]{32}$/);
    assert.deepEqual(answer, { pinId: answer.pinId, to: '41793026701', ncStatus: 'NC_DESTINATION_REACHABLE', smsStatus: 'MESSAGE_SENT' }, 'no externalMessageId without trackDelivery');

    const pin = await readPin(server, '41793026701');
    assert.match(pin, /^[0-9]{6}$/);
    const [message] = await phoneMessages(server, '41793026701');
    assert.equal(message!.text, `Hi Ana, your code is ${pin}. {{unknown}}`, 'placeholders filled, an unknown one left as written');
    const logs = (await server.request('GET', '/sms/3/logs?destination=41793026701')).json().results;
    assert.deepEqual([logs.length, logs[0].content.text], [1, message!.text], 'without trackDelivery the PIN still travels the SMS pipeline and shows in its logs');
    assert.equal(logs[0].messageId, message!.messageId, 'the logged SMS is the one the phone received');

    const wrong = await verify(server, answer.pinId, pin === '000000' ? '111111' : '000000');
    assert.deepEqual(wrong.json(), { pinId: answer.pinId, msisdn: '41793026701', verified: false, attemptsRemaining: 9, pinError: 'WRONG_PIN' });
    const right = await verify(server, answer.pinId, pin);
    assert.deepEqual(right.json(), { pinId: answer.pinId, msisdn: '41793026701', verified: true, attemptsRemaining: 0 });
    assert.equal((await verify(server, answer.pinId, pin)).json().verified, true, 'allowMultiplePinVerifications defaults to true');

    const verifications = (await server.request('GET', `/2fa/2/applications/${applicationId}/verifications?msisdn=41793026701`)).json().verifications;
    assert.equal(verifications.length, 1);
    assert.deepEqual(Object.keys(verifications[0]).sort(), ['msisdn', 'sentAt', 'verified', 'verifiedAt']);
    assert.equal(verifications[0].verified, true);
    assert.ok(Number.isInteger(verifications[0].sentAt) && verifications[0].sentAt > 1e12, 'Unix milliseconds');

    await sendPin(server, { applicationId, messageId, to: '41793026701' });
    const listed = async (query: string) =>
      (await server.request('GET', `/2fa/2/applications/${applicationId}/verifications?msisdn=41793026701${query}`)).json().verifications.map((v: { verified: boolean }) => v.verified);
    assert.deepEqual(await listed(''), [false, true], 'newest first');
    assert.deepEqual(await listed('&verified=true'), [true]);
    assert.deepEqual(await listed('&verified=false'), [false]);
    assert.deepEqual(await listed('&verified=false&sent=true'), [false]);
    assert.deepEqual(await listed('&verified=true&sent=false'), []);
  });

  it('makes PINs of the template alphabet and length, and verifies letters in any case', async () => {
    for (const [pinType, alphabet] of [['ALPHA', /^[A-Z]{8}$/], ['HEX', /^[0-9A-F]{8}$/], ['ALPHANUMERIC', /^[0-9A-Z]{8}$/]] as const) {
      const { applicationId, messageId } = await createFlow(server, undefined, { pinType, pinLength: 8 });
      const number = `4179302671${pinType.length % 10}`;
      const before = (await phoneMessages(server, number)).length;
      const { pinId } = (await sendPin(server, { applicationId, messageId, to: number })).json();
      const pin = await readPin(server, number, before + 1);
      assert.match(pin, alphabet, pinType);
      assert.equal((await verify(server, pinId, pin.toLowerCase())).json().verified, true, `${pinType} in lower case`);
    }
  });

  it('resends the same PIN under the same pinId, by SMS and by voice, and a voice call reads it digit by digit', async () => {
    const { applicationId, messageId } = await createFlow(server, undefined, { repeatDTMF: '1#' });
    const { pinId } = (await sendPin(server, { applicationId, messageId, to: '41793026702' })).json();
    const pin = await readPin(server, '41793026702');
    const resent = await server.request('POST', `/2fa/2/pin/${pinId}/resend`, { body: {} });
    assert.deepEqual(resent.json(), { pinId, to: '41793026702', ncStatus: 'NC_DESTINATION_REACHABLE', smsStatus: 'MESSAGE_SENT' });
    assert.equal(await readPin(server, '41793026702', 2), pin, 'the same PIN');

    const voice = await server.request('POST', `/2fa/2/pin/${pinId}/resend/voice`);
    assert.equal(voice.status, 200, 'the body is optional');
    assert.deepEqual(voice.json(), { pinId, to: '41793026702', callStatus: 'PENDING_ACCEPTED' });
    const heard = await eventually(async () => (await phoneMessages(server, '41793026702')).find((m) => m.channel === 'VOICE'));
    assert.equal(heard.text, `Your code is ${pin.split('').join(' ')}.`);
    assert.equal((await verify(server, pinId, pin)).json().verified, true);

    const byVoice = await sendPin(server, { applicationId, messageId, to: '41793026703', from: '41225555555' }, '/2fa/2/pin/voice');
    assert.deepEqual(Object.keys(byVoice.json()).sort(), ['callStatus', 'pinId', 'to']);
    const call = await eventually(async () => (await phoneMessages(server, '41793026703')).find((m) => m.channel === 'VOICE'));
    assert.equal(call.from, '41225555555', 'the caller id is the request from');
    assert.match(call.text, /^Your code is (\d ){5}\d\.$/);
  });

  it('answers the number lookup: an unreachable number gets no SMS, and ncNeeded=false skips the lookup', async () => {
    const { applicationId, messageId } = await createFlow(server);
    const unreachable = await sendPin(server, { applicationId, messageId, to: '41793029001' });
    assert.deepEqual(
      [unreachable.status, unreachable.json().ncStatus, unreachable.json().smsStatus],
      [200, 'NC_DESTINATION_NOT_REACHABLE', 'MESSAGE_NOT_SENT'],
    );
    const skipped = await server.request('POST', '/2fa/2/pin?ncNeeded=false', { body: { applicationId, messageId, to: '41793026704' } });
    assert.deepEqual(Object.keys(skipped.json()).sort(), ['pinId', 'smsStatus', 'to'], 'no ncStatus without a lookup');
    await readPin(server, '41793026704');
    assert.equal((await server.request('GET', '/sms/3/logs?destination=41793029001')).json().results.length, 0, 'nothing was sent to the unreachable number');
    const sent = (await server.request('GET', `/2fa/2/applications/${applicationId}/verifications?msisdn=41793029001&sent=false`)).json();
    assert.equal(sent.verifications.length, 1, 'the PIN that did not leave is listed with sent=false');
    assert.equal((await server.request('GET', `/2fa/2/applications/${applicationId}/verifications?msisdn=41793029001&sent=true`)).json().verifications.length, 0);
  });

  it('with trackDelivery answers the externalMessageId, which names the SMS and its delivery report through subscriptions', async () => {
    const subscription = await server.request('POST', '/subscriptions/1/subscription/SMS', {
      body: { subscriptionId: 'otp-dlr', events: ['DELIVERY'], profile: { profileId: 'OTP', webhook: { notifyUrl: receiver.url } } },
    });
    assert.equal(subscription.status, 201, subscription.text);
    const { applicationId, messageId } = await createFlow(server);
    const sent = (await sendPin(server, { applicationId, messageId, to: '41793026705', trackDelivery: true })).json();
    assert.match(sent.externalMessageId, /^[0-9a-f-]{36}$/);
    const report = await eventually(async () =>
      receiver.posts.map((p) => (p.body as { results: Array<{ messageId: string; status: { groupName: string } }> }).results[0]).find((r) => r?.messageId === sent.externalMessageId),
    );
    assert.equal(report.status.groupName, 'DELIVERED');
    const [message] = await phoneMessages(server, '41793026705');
    assert.equal(message!.messageId, sent.externalMessageId);
  });

  it('reports a voice PIN sent with trackDelivery to VOICE_VIDEO DELIVERY subscriptions: delivered once answered, else not', async () => {
    const subscription = await server.request('POST', '/subscriptions/1/subscription/VOICE_VIDEO', {
      body: { subscriptionId: 'otp-voice-dlr', events: ['DELIVERY'], profile: { profileId: 'OTP-VOICE', webhook: { notifyUrl: receiver.url } } },
    });
    assert.equal(subscription.status, 201, subscription.text);
    const { applicationId, messageId } = await createFlow(server);
    const reportOf = (id: string) =>
      eventually(async () =>
        receiver.posts
          .map((p) => (p.body as { results?: Array<{ messageId: string; to: string; status: { groupName: string }; error: { name: string } }> }).results?.[0])
          .find((r) => r?.messageId === id),
      );
    const answered = (await sendPin(server, { applicationId, messageId, to: '41793026707', trackDelivery: true }, '/2fa/2/pin/voice')).json();
    assert.match(answered.externalMessageId, /^[0-9a-f-]{36}$/);
    const delivered = await reportOf(answered.externalMessageId);
    assert.deepEqual([delivered.to, delivered.status.groupName, delivered.error.name], ['41793026707', 'DELIVERED', 'NO_ERROR']);
    const busy = (await sendPin(server, { applicationId, messageId, to: '41793029011', trackDelivery: true }, '/2fa/2/pin/voice')).json();
    assert.equal((await reportOf(busy.externalMessageId)).status.groupName, 'UNDELIVERABLE');
    const untracked = (await sendPin(server, { applicationId, messageId, to: '41793026708' }, '/2fa/2/pin/voice')).json();
    await eventually(async () => ((await phoneMessages(server, '41793026708')).length > 0 ? true : undefined));
    assert.equal(untracked.externalMessageId, undefined);
  });

  it('refuses what cannot be sent with 400 naming the field, and answers 404 for an unknown pinId', async () => {
    const { applicationId, messageId } = await createFlow(server);
    const refused = async (body: Record<string, unknown>) => legacyError(await sendPin(server, { applicationId, messageId, to: '41793026706', ...body }));
    assert.deepEqual(await refused({ applicationId: '0123456789ABCDEF0123456789ABCDEF' }), { status: 400, messageId: 'BAD_REQUEST', fields: ['applicationId'] });
    assert.deepEqual((await refused({ messageId: '0123456789ABCDEF0123456789ABCDEF' })).fields, ['messageId']);
    assert.deepEqual((await refused({ to: 'not a number' })).fields, ['to']);
    assert.deepEqual((await refused({ placeholders: { pin: '1234' } })).fields, ['placeholders.pin']);
    assert.deepEqual((await refused({ to: undefined })).fields, ['to']);
    assert.deepEqual((await refused({ trackDelivery: 'yes' })).fields, ['trackDelivery']);
    assert.equal((await phoneMessages(server, '41793026706')).length, 0, 'no refused request sent anything');

    const unknown = '0123456789ABCDEF0123456789ABCDEF';
    assert.deepEqual(legacyError(await verify(server, unknown, '1234')), { status: 404, messageId: 'NOT_FOUND', fields: [] });
    assert.equal((await server.request('POST', `/2fa/2/pin/${unknown}/resend`, { body: {} })).status, 404);
    assert.equal((await server.request('POST', `/2fa/2/pin/${unknown}/resend/voice`, { body: {} })).status, 404);
    assert.deepEqual(legacyError(await server.request('POST', `/2fa/2/pin/${unknown}/verify`, { body: {} })).fields, ['pin']);
    assert.equal((await server.request('GET', `/2fa/2/applications/${unknown}/verifications?msisdn=41793026706`)).status, 404);
    assert.deepEqual(legacyError(await server.request('GET', `/2fa/2/applications/${applicationId}/verifications`)).fields, ['msisdn']);
  });
});
