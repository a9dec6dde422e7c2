import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { otherAccount } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { T0 } from '../helpers/stores.js';
import { createFlow, LOOSE, readPin, sendPin, verify } from './verify-fixture.js';

const wrongOf = (pin: string): string => (pin === '000000' ? '111111' : '000000');

describe("GET /switchboard/1/2fa/applications/{appId}/pins: an application's PINs and how each fared", () => {
  const clock = new ManualClock(T0);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  const pinsOf = async (appId: string, query = '', key?: string) => server.request('GET', `/switchboard/1/2fa/applications/${appId}/pins${query}`, { key });

  it('lists PINs newest first with channel, attempts and state, and never the PIN', async () => {
    const { applicationId, messageId } = await createFlow(server, { ...LOOSE, pinAttempts: 2, pinTimeToLive: '10m', allowMultiplePinVerifications: false });
    const send = async (to: string) => {
      const response = await sendPin(server, { applicationId, messageId, to });
      assert.equal(response.status, 200, response.text);
      clock.advance(1000);
      return response.json().pinId as string;
    };
    const verified = await send('41793026801');
    const exhausted = await send('41793026802');
    const expiring = await send('41793026803');
    const voice = await sendPin(server, { applicationId, messageId, to: '41793026804' }, '/2fa/2/pin/voice');
    assert.equal(voice.status, 200, voice.text);

    const pins = [await readPin(server, '41793026801'), await readPin(server, '41793026802')];
    assert.equal((await verify(server, verified, pins[0]!)).json().verified, true);
    for (let i = 0; i < 2; i++) assert.equal((await verify(server, exhausted, wrongOf(pins[1]!))).json().verified, false);

    clock.advance(10 * 60_000 - 500);
    const response = await pinsOf(applicationId);
    assert.equal(response.status, 200, response.text);
    const results = response.json().results as Array<Record<string, unknown>>;
    assert.deepEqual(results.map((p) => [p.pinId, p.channel, p.state, p.wrongAttempts, p.attemptsRemaining, p.verified]), [
      [voice.json().pinId, 'VOICE', 'PENDING', 0, 2, false],
      [expiring, 'SMS', 'EXPIRED', 0, 2, false],
      [exhausted, 'SMS', 'NO_MORE_ATTEMPTS', 2, 0, false],
      [verified, 'SMS', 'VERIFIED', 0, 0, true],
    ]);
    const newest = results[0]!;
    assert.equal(typeof newest.callId, 'string');
    assert.equal(newest.messageId, undefined);
    assert.deepEqual([newest.msisdn, newest.sentAt, newest.expiresAt], ['41793026804', formatInfobipTime(T0 + 3000), formatInfobipTime(T0 + 3000 + 600_000)]);
    assert.equal(results[3]!.verifiedAt, formatInfobipTime(T0 + 3000));
    assert.equal(typeof results[3]!.messageId, 'string');
    for (const pin of pins) assert.doesNotMatch(response.text, new RegExp(pin));
    assert.doesNotMatch(response.text, /hash/i);

    assert.deepEqual((await pinsOf(applicationId, '?limit=1')).json().results.map((p: Record<string, unknown>) => p.pinId), [voice.json().pinId]);
  });

  it("answers 404 for another account's or an unknown application, and 400 for a bad limit", async () => {
    const { applicationId } = await createFlow(server);
    const { key } = await otherAccount(server.ctx.store, clock.now());
    const foreign = await pinsOf(applicationId, '', key);
    assert.equal(foreign.status, 404);
    assert.deepEqual(Object.keys(foreign.json()), ['requestError']);
    assert.equal((await pinsOf('NO-SUCH-APP')).status, 404);
    const bad = await pinsOf(applicationId, '?limit=1001');
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.json().requestError.serviceException.validationErrors), ['limit']);
  });
});
