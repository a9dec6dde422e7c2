import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuthType, Infobip } from '@infobip-api/sdk';
import { eventually, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The community Node SDK (@infobip-api/sdk, pinned) driving the 2FA API as a user of Infobip would,
 * given only Switchboard's URL and an API key. Its methods do not throw: they resolve to the axios
 * response, or to the error they caught.
 */

interface SdkResult {
  status?: number;
  data?: any;
  isAxiosError?: boolean;
  config?: { method?: string; url?: string; data?: string };
  response?: { status: number; data: unknown };
}

/** The parsed body of a 2xx answer; anything else fails with the request the SDK sent and the answer. */
function bodyOf(result: SdkResult | Error): any {
  if (result instanceof Error && !('isAxiosError' in result)) throw result;
  const answer = result as SdkResult;
  if (answer.isAxiosError || answer.status === undefined) {
    const { method, url, data } = answer.config ?? {};
    throw new Error(`the SDK sent ${method?.toUpperCase()} ${url} ${data ?? ''} and got ${answer.response?.status} ${JSON.stringify(answer.response?.data)}`);
  }
  return answer.data;
}

/** The text of the newest message of a channel on a sandbox phone. */
async function newestOnPhone(server: TestServer, number: string, channel: 'SMS' | 'VOICE'): Promise<string> {
  return eventually(async () => {
    const inbox = (await server.request('GET', `/sandbox/1/phones/${number}/messages`)).json();
    return inbox.messages.find((message: { channel: string }) => message.channel === channel)?.text as string | undefined;
  });
}

/** The PIN at the end of a message; a voice message reads it digit by digit. */
const pinIn = (text: string): string => /[0-9 ]+$/.exec(text)![0].replaceAll(' ', '');
/** A PIN of the same length that is surely wrong. */
const wrongPin = (pin: string): string => pin.replace(/[0-9]/g, (digit) => String((Number(digit) + 1) % 10));

const HEX_ID = /^[0-9A-F]{32}$/;
const VOICE_NUMBER = '41793026727';
const SMS_NUMBER = '41793026728';

describe('the community Node SDK (@infobip-api/sdk 0.3.2) on the 2FA API', () => {
  let server: TestServer;
  let twoFA: any;
  let applicationId: string;
  let messageId: string;
  before(async () => {
    server = await startTestServer();
    twoFA = new Infobip({ baseUrl: server.url, authType: AuthType.ApiKey, apiKey: server.apiKey }).service.twoFA;
  });
  after(() => server.close());

  it('creates, lists, reads and updates an application and its message template', async () => {
    const configuration = {
      pinAttempts: 3,
      allowMultiplePinVerifications: true,
      pinTimeToLive: '10m',
      verifyPinLimit: '10/1s',
      sendPinPerApplicationLimit: '100/1d',
      sendPinPerPhoneNumberLimit: '5/1d',
    };
    const created = bodyOf(await twoFA.createApplication({ name: 'Acme sign-in', enabled: true, configuration }));
    assert.match(created.applicationId, HEX_ID);
    applicationId = created.applicationId;
    assert.deepEqual(created, { applicationId, name: 'Acme sign-in', configuration, enabled: true });
    assert.deepEqual(bodyOf(await twoFA.getApplications()), [created]);
    assert.deepEqual(bodyOf(await twoFA.getApplication(applicationId)), created);
    const updated = bodyOf(await twoFA.updateApplication(applicationId, { name: 'Acme login', configuration: { pinAttempts: 5 } }));
    assert.deepEqual(updated, { ...created, name: 'Acme login', configuration: { ...configuration, pinAttempts: 5 } });

    const template = bodyOf(
      await twoFA.createMessageTemplate(applicationId, { messageText: 'Your code is {{pin}}', pinType: 'NUMERIC', pinLength: 6, senderId: 'Acme', language: 'en', repeatDTMF: '1#', speechRate: 1 }),
    );
    assert.match(template.messageId, HEX_ID);
    messageId = template.messageId;
    assert.deepEqual(template, {
      messageId,
      applicationId,
      messageText: 'Your code is {{pin}}',
      pinPlaceholder: '{{pin}}',
      pinLength: 6,
      pinType: 'NUMERIC',
      senderId: 'Acme',
      language: 'en',
      repeatDTMF: '1#',
      speechRate: 1,
    });
    assert.deepEqual(bodyOf(await twoFA.getMessageTemplates(applicationId)), [template]);
    assert.deepEqual(bodyOf(await twoFA.getMessageTemplate(applicationId, messageId)), template);
    const retext = bodyOf(await twoFA.updateMessageTemplate(applicationId, messageId, { messageText: 'Your Acme code is {{pin}}' }));
    assert.deepEqual(retext, { ...template, messageText: 'Your Acme code is {{pin}}' });
  });

  // A PIN starts here by voice and reaches the phone by SMS through the SDK's resend.
  it('sends a PIN by voice, resends it by SMS, refuses a wrong PIN, verifies the right one, and resends by voice', async () => {
    const called = bodyOf(await twoFA.sendPINCodeVoice({ applicationId, messageId, to: VOICE_NUMBER }));
    assert.match(called.pinId, HEX_ID);
    const { pinId } = called;
    assert.deepEqual(called, { pinId, to: VOICE_NUMBER, callStatus: 'PENDING_ACCEPTED' });
    const spoken = pinIn(await newestOnPhone(server, VOICE_NUMBER, 'VOICE'));
    assert.match(spoken, /^[0-9]{6}$/);

    const resent = bodyOf(await twoFA.resendPINCodeSMS(pinId));
    assert.deepEqual(resent, { pinId, to: VOICE_NUMBER, ncStatus: 'NC_DESTINATION_REACHABLE', smsStatus: 'MESSAGE_SENT' });
    const texted = await newestOnPhone(server, VOICE_NUMBER, 'SMS');
    assert.equal(texted, `Your Acme code is ${spoken}`, 'a resend carries the same PIN');

    const wrong = bodyOf(await twoFA.verifyPhoneNumber(pinId, { pin: wrongPin(spoken) }));
    assert.deepEqual(wrong, { pinId, msisdn: VOICE_NUMBER, verified: false, attemptsRemaining: 4, pinError: 'WRONG_PIN' });
    const right = bodyOf(await twoFA.verifyPhoneNumber(pinId, { pin: spoken }));
    assert.deepEqual(right, { pinId, msisdn: VOICE_NUMBER, verified: true, attemptsRemaining: 0 });

    const recalled = bodyOf(await twoFA.resendPINCodeVoice(pinId));
    assert.deepEqual(recalled, { pinId, to: VOICE_NUMBER, callStatus: 'PENDING_ACCEPTED' });
  });

  it(
    // The SDK puts a slash before these two query strings (`/2fa/2/pin/?ncNeeded=…`), and without
    // its second argument sends `ncNeeded=undefined`: both are taken as Infobip takes them.
    'sends a PIN over SMS, verifies it, and lists the verifications of the number',
    async () => {
      const sent = bodyOf(await twoFA.sendPINCodeSMS({ applicationId, messageId, to: SMS_NUMBER }));
      assert.deepEqual(sent, { pinId: sent.pinId, to: SMS_NUMBER, ncStatus: 'NC_DESTINATION_REACHABLE', smsStatus: 'MESSAGE_SENT' });
      const pin = pinIn(await newestOnPhone(server, SMS_NUMBER, 'SMS'));
      assert.equal(bodyOf(await twoFA.verifyPhoneNumber(sent.pinId, { pin })).verified, true);
      const status = bodyOf(await twoFA.getVerificationStatus(applicationId, { msisdn: SMS_NUMBER }));
      assert.deepEqual(
        status.verifications.map((v: { msisdn: string; verified: boolean }) => [v.msisdn, v.verified]),
        [[SMS_NUMBER, true]],
      );
    },
  );
});
