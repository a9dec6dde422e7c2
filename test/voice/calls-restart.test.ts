import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { childApi as api, startChildServer, type ChildApi as Api } from '../helpers/child-server.js';
import { eventually, removeTestEnv, testEnv, testStoreKind } from '../helpers/server.js';
import { PUSHED_EVENTS } from './voice-fixture.js';

async function prepare(call: Api, receiver: WebhookReceiver): Promise<void> {
  assert.equal((await call('POST', '/calls/1/configurations', { id: 'restart' })).status, 201);
  const subscribed = await call('POST', '/subscriptions/1/subscription/VOICE_VIDEO', {
    subscriptionId: 'events',
    events: PUSHED_EVENTS,
    profile: { webhook: { notifyUrl: receiver.url } },
  });
  assert.equal(subscribed.status, 201);
}

const eventsOf = (receiver: WebhookReceiver, callId: string) =>
  receiver.posts.map((p) => p.body as { type: string; callId: string; properties?: any }).filter((e) => e.callId === callId);

const waitFor = (receiver: WebhookReceiver, callId: string, type: string) =>
  eventually(async () => eventsOf(receiver, callId).find((e) => e.type === type), 15_000);

describe('calls across restarts and nodes', () => {
  const cleanups: Array<() => Promise<void>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('keeps calls and their history across kill -9; calls live when the node died end with SERVICE_UNAVAILABLE', async () => {
    const env = await testEnv({ SWITCHBOARD_NODE_ID: 'restart-node' });
    cleanups.push(() => removeTestEnv(env));
    const receiver = await WebhookReceiver.start();
    cleanups.push(() => receiver.close());
    let server = await startChildServer(env);
    let call = api(server, env.SWITCHBOARD_API_KEY!);
    await prepare(call, receiver);
    const create = async (phoneNumber: string) =>
      (await call('POST', '/calls/1/calls', { endpoint: { type: 'PHONE', phoneNumber }, from: '41790000000', callsConfigurationId: 'restart' })).json.id as string;
    const talking = await create('41793026727');
    const ringing = await create('41793029012');
    const ended = await create('41793029011');
    await waitFor(receiver, talking, 'CALL_ESTABLISHED');
    await waitFor(receiver, ringing, 'CALL_RINGING');
    await waitFor(receiver, ended, 'CALL_FAILED');
    // A POST under way when the node dies is posted again once its lease runs out, and holds back the
    // events behind it in its call's stream meanwhile: the kill comes once the outbox has settled.
    await eventually(async () => ((await call('GET', '/switchboard/1/webhooks/items?state=pending')).json.results.length === 0 ? true : undefined));

    await server.kill9();
    server = await startChildServer(env);
    cleanups.push(async () => void (await server.terminate()));
    call = api(server, env.SWITCHBOARD_API_KEY!);

    const finished = (await waitFor(receiver, talking, 'CALL_FINISHED')).properties.callLog;
    assert.deepEqual([finished.state, finished.errorCode.name, finished.hangupSource], ['FINISHED', 'SERVICE_UNAVAILABLE', 'PLATFORM']);
    const failed = (await waitFor(receiver, ringing, 'CALL_FAILED')).properties.callLog;
    assert.deepEqual([failed.state, failed.errorCode.id], ['FAILED', 10309]);
    const history = await call('GET', `/calls/1/calls/${ended}/history`);
    assert.deepEqual([history.status, history.json.state, history.json.errorCode.name], [200, 'BUSY', 'BUSY']);
    assert.equal((await call('GET', `/calls/1/calls/${talking}`)).json.state, 'FINISHED');
    assert.deepEqual((await call('GET', '/calls/1/calls')).json.results, [], 'no call stays live');
  });

  it('carries calls across nodes: one node answers and hangs up a call the other received, and speaks on and hangs up a call the other placed (PostgreSQL)', { skip: testStoreKind() !== 'postgres' && 'two nodes share PostgreSQL only' }, async () => {
    const env = await testEnv({ SWITCHBOARD_SANDBOX_LATENCY_MS: '0' });
    cleanups.push(() => removeTestEnv(env));
    const receiver = await WebhookReceiver.start();
    cleanups.push(() => receiver.close());
    const first = await startChildServer({ ...env, SWITCHBOARD_NODE_ID: 'node-one' });
    cleanups.push(async () => void (await first.terminate()));
    const second = await startChildServer({ ...env, SWITCHBOARD_NODE_ID: 'node-two', DATA_DIR: `${env.DATA_DIR}-two` });
    cleanups.push(async () => void (await second.terminate()));
    const one = api(first, env.SWITCHBOARD_API_KEY!);
    const two = api(second, env.SWITCHBOARD_API_KEY!);
    await prepare(one, receiver);

    const received = await one('POST', '/sandbox/1/calls/inbound', { from: '41793026727', to: '41790000000' });
    assert.equal(received.status, 200);
    const id = received.json.id as string;
    await waitFor(receiver, id, 'CALL_RECEIVED');
    assert.equal((await two('POST', `/calls/1/calls/${id}/answer`, {})).status, 200);
    await waitFor(receiver, id, 'CALL_ESTABLISHED');
    assert.equal((await two('POST', `/calls/1/calls/${id}/say`, { text: 'answered elsewhere', language: 'en' })).status, 200);
    await waitFor(receiver, id, 'SAY_FINISHED');
    const hungUp = await two('POST', `/calls/1/calls/${id}/hangup`, {});
    assert.equal(hungUp.json.state, 'FINISHED');
    await waitFor(receiver, id, 'CALL_FINISHED');
    assert.deepEqual(
      eventsOf(receiver, id).map((e) => e.type),
      ['CALL_RECEIVED', 'CALL_ESTABLISHED', 'SAY_FINISHED', 'CALL_FINISHED'],
    );
    assert.equal((await one('GET', `/calls/1/calls/${id}/history`)).json.hangupSource, 'API');

    const placed = await one('POST', '/calls/1/calls', { endpoint: { type: 'PHONE', phoneNumber: '41793026727' }, from: '41790000000', callsConfigurationId: 'restart' });
    assert.equal(placed.status, 201);
    const outbound = placed.json.id as string;
    await waitFor(receiver, outbound, 'CALL_ESTABLISHED');
    assert.equal((await two('GET', `/calls/1/calls/${outbound}`)).json.state, 'ESTABLISHED', 'the other node sees the call answered');
    assert.equal((await two('POST', `/calls/1/calls/${outbound}/say`, { text: 'placed elsewhere', language: 'en' })).status, 200);
    await waitFor(receiver, outbound, 'SAY_FINISHED');
    const ended = await two('POST', `/calls/1/calls/${outbound}/hangup`, {});
    assert.deepEqual([ended.status, ended.json.state], [200, 'FINISHED']);
    await waitFor(receiver, outbound, 'CALL_FINISHED');
    assert.deepEqual(
      eventsOf(receiver, outbound).map((e) => e.type),
      ['CALL_STARTED', 'CALL_RINGING', 'CALL_ESTABLISHED', 'SAY_FINISHED', 'CALL_FINISHED'],
    );
    const log = (await one('GET', `/calls/1/calls/${outbound}/history`)).json;
    assert.deepEqual([log.direction, log.state, log.errorCode.name, log.hangupSource], ['OUTBOUND', 'FINISHED', 'NORMAL_HANGUP', 'API']);
    const heard = (await one('GET', '/sandbox/1/phones/41793026727/messages')).json.messages.filter((m: { channel: string }) => m.channel === 'VOICE');
    assert.ok(heard.some((m: { text: string }) => m.text === 'placed elsewhere'), 'the phone heard what the other node said');
  });
});
