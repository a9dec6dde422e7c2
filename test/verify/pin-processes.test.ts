import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openStore } from '../../src/core/store/open-store.js';
import { childApi, startChildServer, type ChildApi, type ChildServer } from '../helpers/child-server.js';
import { eventually, removeTestEnv, testEnv, testStoreKind } from '../helpers/server.js';
import { LOOSE, TEXT } from './verify-fixture.js';

const CODE = /code is ([A-Z]+)\./;

async function prepare(call: ChildApi, configuration: Record<string, unknown>): Promise<{ applicationId: string; messageId: string }> {
  const application = await call('POST', '/2fa/2/applications', { name: 'Login', configuration });
  const template = await call('POST', `/2fa/2/applications/${application.json.applicationId}/messages`, { messageText: TEXT, pinType: 'ALPHA', pinLength: 10 });
  assert.equal(template.status, 200);
  return { applicationId: application.json.applicationId, messageId: template.json.messageId };
}

async function sendAndRead(call: ChildApi, flow: { applicationId: string; messageId: string }, to: string): Promise<{ pinId: string; pin: string }> {
  const sent = await call('POST', '/2fa/2/pin', { ...flow, to });
  assert.equal(sent.status, 200);
  const pin = await eventually(async () => CODE.exec((await call('GET', `/sandbox/1/phones/${to}/messages`)).json.messages[0]?.text ?? '')?.[1]);
  return { pinId: sent.json.pinId, pin };
}

describe('PINs across processes', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('keeps a PIN across kill -9 until its TTL, and writes neither the PIN nor its hash to the logs or error bodies', async () => {
    const env = await testEnv({ LOG_LEVEL: 'trace', SWITCHBOARD_NODE_ID: 'pin-node' });
    cleanups.push(() => removeTestEnv(env));
    let server: ChildServer = await startChildServer(env);
    // Whichever server runs when the test ends, even by a failed assertion, is stopped.
    cleanups.push(() => server.terminate());
    let call = childApi(server, env.SWITCHBOARD_API_KEY!);
    const flow = await prepare(call, LOOSE);
    const { pinId, pin } = await sendAndRead(call, flow, '41793028001');
    const wrong = await call('POST', `/2fa/2/pin/${pinId}/verify`, { pin: 'WRONGWRONG' });
    assert.equal(wrong.json.pinError, 'WRONG_PIN');
    const errors = [
      await call('POST', `/2fa/2/pin/${pinId}/verify`, { pin: 42 }),
      await call('POST', `/2fa/2/pin/${pinId}/resend`, { placeholders: { pin } }),
      await call('POST', '/2fa/2/pin', { ...flow, to: '41793028001', placeholders: { pin } }),
    ];
    assert.deepEqual(errors.map((e) => e.status), [400, 400, 400]);
    const firstOutput = server.output();
    await server.kill9();

    server = await startChildServer(env);
    call = childApi(server, env.SWITCHBOARD_API_KEY!);
    const verified = await call('POST', `/2fa/2/pin/${pinId}/verify`, { pin });
    assert.deepEqual([verified.status, verified.json.verified], [200, true], 'the PIN and the key it derives from survived');
    assert.equal((await call('POST', `/2fa/2/pin/${pinId}/resend`, {})).status, 200);
    await server.terminate();

    const store = await openStore({ url: env.DATABASE_URL, dataDir: env.DATA_DIR!, schema: env.DATABASE_SCHEMA });
    const account = await store.accounts.ensure('default', Date.now());
    const hash = (await store.pins.get(account.id, pinId))!.pinHash;
    await store.close();
    const everything = [firstOutput, server.output(), ...errors.map((e) => JSON.stringify(e.json))].join('\n');
    assert.ok(firstOutput.length > 0, 'the server did log');
    assert.ok(!everything.includes(pin), 'the PIN is in no log line and no error body');
    assert.ok(!everything.toLowerCase().includes(hash.toLowerCase()), 'nor its hash');
  });

  it(
    'counts no more than pinAttempts of 100 wrong guesses split between two server processes on one PostgreSQL',
    { skip: testStoreKind() !== 'postgres' && 'two processes share PostgreSQL only' },
    async () => {
      const env = await testEnv();
      cleanups.push(() => removeTestEnv(env));
      const first = await startChildServer({ ...env, SWITCHBOARD_NODE_ID: 'pin-one' });
      cleanups.push(() => first.terminate());
      const second = await startChildServer({ ...env, SWITCHBOARD_NODE_ID: 'pin-two', DATA_DIR: `${env.DATA_DIR}-two` });
      cleanups.push(() => second.terminate());
      const one = childApi(first, env.SWITCHBOARD_API_KEY!);
      const two = childApi(second, env.SWITCHBOARD_API_KEY!);
      const flow = await prepare(one, { ...LOOSE, pinAttempts: 7 });
      const { pinId, pin } = await sendAndRead(one, flow, '41793028002');
      const guesses = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? one : two)('POST', `/2fa/2/pin/${pinId}/verify`, { pin: 'WRONGWRONG' })));
      const errors = guesses.map((g) => g.json.pinError);
      assert.equal(errors.filter((e) => e === 'WRONG_PIN').length, 7);
      assert.equal(errors.filter((e) => e === 'NO_MORE_PIN_ATTEMPTS').length, 93);
      assert.equal((await two('POST', `/2fa/2/pin/${pinId}/verify`, { pin })).json.pinError, 'NO_MORE_PIN_ATTEMPTS', 'the right PIN is refused after');
    },
  );
});
