import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { refuseInserts } from '../helpers/store-faults.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createFlow, phoneMessages, readPin, sendPin, verify } from './verify-fixture.js';

describe('voice PINs: the call as the template asks, and a call that cannot be created', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it("reads the PIN in the template's language and at its speechRate (the sandbox call's timeline)", async () => {
    const { applicationId, messageId } = await createFlow(server, undefined, { language: 'pt_br', speechRate: 1.5, voiceName: 'Ana' });
    const sent = (await sendPin(server, { applicationId, messageId, to: '41793026781', trackDelivery: true }, '/2fa/2/pin/voice')).json();
    const pin = await readPin(server, '41793026781');
    const timeline = (await server.request('GET', `/sandbox/1/calls/${sent.externalMessageId}/timeline`)).json();
    const said = timeline.entries.filter((e: { type: string }) => e.type === 'SAY');
    assert.equal(said.length, 1);
    assert.deepEqual(
      [said[0].text, said[0].language, said[0].speechRate, said[0].loopCount],
      [`Your code is ${pin.split('').join(' ')}.`, 'pt-br', 1.5, 2],
      "the 2FA language as the Calls API's, the template's rate, read twice",
    );
  });

  it('answers callStatus REJECTED, not a 5xx, when the call cannot be stored; the PIN is not sent, and a resend by SMS delivers it', async () => {
    const number = '41793026790';
    await refuseInserts(server.env, 'calls', 'to_id', number);
    const { applicationId, messageId } = await createFlow(server);
    const refused = await sendPin(server, { applicationId, messageId, to: number, trackDelivery: true }, '/2fa/2/pin/voice');
    assert.equal(refused.status, 200, refused.text);
    const { pinId } = refused.json();
    assert.deepEqual(refused.json(), { pinId, to: number, callStatus: 'REJECTED' }, 'no externalMessageId: nothing carries the PIN');
    const listed = async (sent: boolean) =>
      (await server.request('GET', `/2fa/2/applications/${applicationId}/verifications?msisdn=${number}&sent=${sent}`)).json().verifications.length;
    assert.deepEqual([await listed(false), await listed(true)], [1, 0]);

    const again = await server.request('POST', `/2fa/2/pin/${pinId}/resend/voice`, { body: {} });
    assert.deepEqual([again.status, again.json().callStatus], [200, 'REJECTED']);
    const bySms = await server.request('POST', `/2fa/2/pin/${pinId}/resend`, { body: {} });
    assert.equal(bySms.json().smsStatus, 'MESSAGE_SENT');
    const pin = await readPin(server, number);
    assert.deepEqual((await phoneMessages(server, number)).map((m) => m.channel), ['SMS'], 'no call reached the phone');
    assert.deepEqual([await listed(false), await listed(true)], [0, 1], 'the SMS carried it');
    assert.equal((await verify(server, pinId, pin)).json().verified, true);
  });
});
