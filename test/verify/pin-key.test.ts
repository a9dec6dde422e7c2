import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/config-error.js';
import { derivePin } from '../../src/verify/pin-codes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createFlow, readPin, sendPin, verify } from './verify-fixture.js';

describe("the operator's PIN key (SWITCHBOARD_PIN_KEY)", () => {
  const servers: TestServer[] = [];
  after(async () => {
    for (const server of servers) await server.close();
  });

  it('derives and hashes PINs under the key given, not one kept in the store', async () => {
    const key = randomBytes(32);
    const server = await startTestServer({ env: { SWITCHBOARD_PIN_KEY: key.toString('hex').toUpperCase() } });
    servers.push(server);
    const { applicationId, messageId } = await createFlow(server);
    const { pinId } = (await sendPin(server, { applicationId, messageId, to: '41793026901' })).json();
    const pin = await readPin(server, '41793026901');
    assert.equal(pin, derivePin(key, pinId, 'NUMERIC', 6), 'the PIN is the one the given key derives');
    assert.equal((await verify(server, pinId, pin)).json().verified, true);
    const stored = await server.ctx.store.secrets.getOrCreate('pin-key', () => 'made by the test');
    assert.equal(stored, 'made by the test', 'no key was kept in the store');
  });

  it('refuses a key that is not 64 hexadecimal digits', () => {
    for (const given of ['abc', 'g'.repeat(64), 'a'.repeat(63), 'a'.repeat(65)]) {
      assert.throws(() => loadConfig({ SWITCHBOARD_PIN_KEY: given }), (error: unknown) => error instanceof ConfigError && /SWITCHBOARD_PIN_KEY/.test(error.message), given);
    }
    assert.equal(loadConfig({ SWITCHBOARD_PIN_KEY: 'AB'.repeat(32) }).pinKey, 'ab'.repeat(32));
    assert.equal(loadConfig({}).pinKey, undefined);
  });
});
