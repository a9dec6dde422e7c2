import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { T0 } from '../../helpers/stores.js';
import { defaultAccountId, otherAccount } from '../../sms/read-fixtures.js';

const BASE = '/subscriptions/1/subscription';

/** The request example of Infobip's create-subscription operation, minus what we do not keep. */
const createExample = (subscriptionId: string, overrides: Record<string, unknown> = {}) => ({
  subscriptionId,
  name: 'Default group',
  events: ['DELIVERY'],
  criteria: [
    { applicationId: 'production', entityId: 'entity1' },
    { applicationId: 'production', entityId: 'entity2' },
    { applicationId: 'test', entityId: 'entity1' },
  ],
  resources: ['1234'],
  users: ['user1', 'user2'],
  profile: {
    profileId: `NOTIF-${subscriptionId}`,
    webhook: { notifyUrl: 'https://www.example.com/pushme' },
    security: { authId: `AUTH-${subscriptionId}`, type: 'BASIC', credentials: { username: 'user1', password: 'password1' } },
  },
  ...overrides,
});

/** The legacy ApiException body with one field's violations. */
const badRequestNaming = (property: string, violation: string) => ({
  requestError: {
    serviceException: { messageId: 'BAD_REQUEST', text: 'Bad request', validationErrors: { [property]: [violation] } },
  },
});

describe('Subscriptions API', () => {
  let server: TestServer;
  const clock = new ManualClock(T0);
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  const create = (body: unknown, key?: string) => server.request('POST', `${BASE}/SMS`, { body, key });

  it('creates with 201, a Location and the id-only body; GET returns the subscription without secrets', async () => {
    const created = await create(createExample('ABC-123-DEF'));
    assert.equal(created.status, 201);
    assert.match(created.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(created.headers.get('location'), `${BASE}/SMS/ABC-123-DEF`);
    assert.deepEqual(created.json(), {
      subscriptionId: 'ABC-123-DEF',
      profile: { profileId: 'NOTIF-ABC-123-DEF', security: { authId: 'AUTH-ABC-123-DEF' } },
    });

    const read = await server.request('GET', `${BASE}/SMS/ABC-123-DEF`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.json(), {
      subscriptionId: 'ABC-123-DEF',
      name: 'Default group',
      profile: {
        profileId: 'NOTIF-ABC-123-DEF',
        webhook: { notifyUrl: 'https://www.example.com/pushme' },
        security: { authId: 'AUTH-ABC-123-DEF' },
      },
      events: ['DELIVERY'],
      criteria: [
        { applicationId: 'production', entityId: 'entity1' },
        { applicationId: 'production', entityId: 'entity2' },
        { applicationId: 'test', entityId: 'entity1' },
      ],
      resources: ['1234'],
    });
    assert.doesNotMatch(read.text, /password1/);
  });

  it('lists newest first with Infobip paging and AND filters', async () => {
    const { key } = await otherAccount(server.ctx.store, clock.now());
    for (const [id, applicationId, resource] of [
      ['list-1', 'production', '111'],
      ['list-2', 'test', '222'],
      ['list-3', 'production', '222'],
    ] as const) {
      clock.advance(1000);
      const response = await create(createExample(id, { criteria: [{ applicationId }], resources: [resource] }), key);
      assert.equal(response.status, 201);
    }
    const list = (query: string) => server.request('GET', `${BASE}/SMS${query}`, { key });

    const first = await list('?size=2');
    assert.equal(first.status, 200);
    const firstPage = first.json();
    assert.deepEqual(firstPage.results.map((s: { subscriptionId: string }) => s.subscriptionId), ['list-3', 'list-2']);
    assert.deepEqual(firstPage.paging, { page: 0, size: 2, totalPages: 2, totalResults: 3 });
    assert.deepEqual(Object.keys(firstPage.results[0]).sort(), ['criteria', 'events', 'name', 'profile', 'resources', 'subscriptionId']);

    const second = (await list('?size=2&page=1')).json();
    assert.deepEqual(second.results.map((s: { subscriptionId: string }) => s.subscriptionId), ['list-1']);
    assert.deepEqual(second.paging, { page: 1, size: 2, totalPages: 2, totalResults: 3 });

    const defaults = (await list('')).json();
    assert.deepEqual(defaults.paging, { page: 0, size: 20, totalPages: 1, totalResults: 3 });

    const production = (await list('?applicationId=production&resource=222')).json();
    assert.deepEqual(production.results.map((s: { subscriptionId: string }) => s.subscriptionId), ['list-3']);
    const both = (await list('?applicationId=production&applicationId=test')).json();
    assert.deepEqual(both.paging.totalResults, 0);

    assert.equal((await list('?size=101')).status, 400);
  });

  it('updates events, name and profile; reuses a profile by id', async () => {
    await create(createExample('upd-1'));
    await create(createExample('upd-2', { profile: { profileId: 'SHARED', webhook: { notifyUrl: 'https://shared.example.com/x' } } }));

    const updated = await server.request('PUT', `${BASE}/SMS/upd-1`, {
      body: { name: 'Updated group', events: ['INBOUND_MESSAGE', { event: 'DELIVERY', format: 'MO_JSON_2' }], profile: { profileId: 'NOTIF-upd-1' } },
    });
    assert.equal(updated.status, 200);
    assert.deepEqual(updated.json(), { subscriptionId: 'upd-1', profile: { profileId: 'NOTIF-upd-1', security: { authId: 'AUTH-upd-1' } } });
    const afterUpdate = (await server.request('GET', `${BASE}/SMS/upd-1`)).json();
    assert.equal(afterUpdate.name, 'Updated group');
    assert.deepEqual(afterUpdate.events, ['INBOUND_MESSAGE', 'DELIVERY']);
    assert.equal(afterUpdate.criteria, undefined, 'PUT replaces the whole subscription');
    assert.equal(afterUpdate.profile.webhook.notifyUrl, 'https://www.example.com/pushme');

    const switched = await server.request('PUT', `${BASE}/SMS/upd-1`, { body: { events: ['DELIVERY'], profile: { profileId: 'SHARED' } } });
    assert.deepEqual(switched.json(), { subscriptionId: 'upd-1', profile: { profileId: 'SHARED' } });
    const targets = await server.ctx.subscriptions.targetsFor(await defaultAccountId(server), 'SMS', 'DELIVERY', {});
    assert.deepEqual(targets.filter((t) => t.subscriptionId === 'upd-1'), [{ url: 'https://shared.example.com/x', subscriptionId: 'upd-1' }]);

    const unknown = await server.request('PUT', `${BASE}/SMS/upd-1`, { body: { events: ['DELIVERY'], profile: { profileId: 'NOPE' } } });
    assert.equal(unknown.status, 400);
    assert.deepEqual(Object.keys(unknown.json().requestError.serviceException.validationErrors), ['profile.profileId']);

    const missing = await server.request('PUT', `${BASE}/SMS/no-such`, { body: { events: ['DELIVERY'] } });
    assert.equal(missing.status, 404);
  });

  it('deletes with 200 and the id-only body; the subscription is then gone', async () => {
    await create(createExample('del-1'));
    const accountId = await defaultAccountId(server);
    const matching = { applicationId: 'production', entityId: 'entity1', to: '1234' };
    const before = await server.ctx.subscriptions.targetsFor(accountId, 'SMS', 'DELIVERY', matching);
    assert.ok(before.some((t) => t.subscriptionId === 'del-1'));

    const deleted = await server.request('DELETE', `${BASE}/SMS/del-1`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.json(), { subscriptionId: 'del-1', profile: { profileId: 'NOTIF-del-1', security: { authId: 'AUTH-del-1' } } });

    const after = await server.ctx.subscriptions.targetsFor(accountId, 'SMS', 'DELIVERY', matching);
    assert.ok(!after.some((t) => t.subscriptionId === 'del-1'), 'the matcher cache was invalidated');
    const read = await server.request('GET', `${BASE}/SMS/del-1`);
    assert.equal(read.status, 404);
    assert.deepEqual(read.json(), { requestError: { serviceException: { messageId: 'NOT_FOUND', text: 'Not found' } } });
    assert.equal((await server.request('DELETE', `${BASE}/SMS/del-1`)).status, 404);
  });

  it('rejects bad input with 400 in the legacy envelope naming the field', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['unsupported channel', `${BASE}/WHATSAPP`, createExample('v-1'), 'channel'],
      ['unknown channel', `${BASE}/sms`, createExample('v-2'), 'channel'],
      ['unsupported event', `${BASE}/SMS`, createExample('v-3', { events: ['DELIVERY', 'CLICK'] }), 'events[1]'],
      ['bad URL', `${BASE}/SMS`, createExample('v-4', { profile: { webhook: { notifyUrl: 'ftp://example.com/x' } } }), 'profile.webhook.notifyUrl'],
      ['URL with credentials', `${BASE}/SMS`, createExample('v-5', { profile: { webhook: { notifyUrl: 'https://u:p@example.com/x' } } }), 'profile.webhook.notifyUrl'],
      ['missing subscriptionId', `${BASE}/SMS`, { events: ['DELIVERY'], profile: { webhook: { notifyUrl: 'https://example.com' } } }, 'subscriptionId'],
      ['id needing URL encoding', `${BASE}/SMS`, createExample('has space', { profile: { webhook: { notifyUrl: 'https://example.com' } } }), 'subscriptionId'],
      ['missing profile', `${BASE}/SMS`, { subscriptionId: 'v-6', events: ['DELIVERY'] }, 'profile'],
      [
        'OAUTH security',
        `${BASE}/SMS`,
        createExample('v-7', { profile: { webhook: { notifyUrl: 'https://example.com' }, security: { authId: 'a', type: 'OAUTH' } } }),
        'profile.security.type',
      ],
      [
        'BASIC without password',
        `${BASE}/SMS`,
        createExample('v-8', { profile: { webhook: { notifyUrl: 'https://example.com' }, security: { type: 'BASIC', credentials: { username: 'u' } } } }),
        'profile.security.credentials.password',
      ],
      ['event of the wrong type', `${BASE}/SMS`, createExample('v-9', { events: [7] }), 'events[0]'],
    ];
    for (const [label, path, body, property] of cases) {
      const response = await server.request('POST', path, { body });
      assert.equal(response.status, 400, label);
      const exception = response.json().requestError.serviceException;
      assert.equal(exception.messageId, 'BAD_REQUEST', label);
      assert.deepEqual(Object.keys(exception.validationErrors), [property], `${label}: ${response.text}`);
    }
    const event = await create(createExample('v-10', { events: ['CLICK'] }));
    assert.deepEqual(event.json(), badRequestNaming('events[0]', 'must be one of [DELIVERY, INBOUND_MESSAGE]'));
  });

  it('serves VOICE_VIDEO: call events, callsConfigurationId criteria, kept apart from SMS', async () => {
    const body = {
      subscriptionId: 'calls-1',
      events: ['CALL_RECEIVED', 'CALL_ESTABLISHED', 'SAY_FINISHED', 'CONFERENCE_CREATED', 'TRANSCRIPTION', 'DELIVERY'],
      criteria: [{ callsConfigurationId: 'conf-1' }, { applicationId: 'app', callsConfigurationId: 'conf-2' }],
      profile: { profileId: 'CALLS', webhook: { notifyUrl: 'https://www.example.com/calls' } },
    };
    const created = await server.request('POST', `${BASE}/VOICE_VIDEO`, { body });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.get('location'), `${BASE}/VOICE_VIDEO/calls-1`);

    const read = await server.request('GET', `${BASE}/VOICE_VIDEO/calls-1`);
    assert.deepEqual(read.json(), {
      subscriptionId: 'calls-1',
      profile: { profileId: 'CALLS', webhook: { notifyUrl: 'https://www.example.com/calls' } },
      events: body.events,
      criteria: body.criteria,
    });
    assert.equal((await server.request('GET', `${BASE}/SMS/calls-1`)).status, 404);
    const listed = (await server.request('GET', `${BASE}/VOICE_VIDEO?callsConfigurationId=conf-2`)).json();
    assert.deepEqual(listed.results.map((s: { subscriptionId: string }) => s.subscriptionId), ['calls-1']);
    const sms = (await server.request('GET', `${BASE}/SMS`)).json();
    assert.ok(!sms.results.some((s: { subscriptionId: string }) => s.subscriptionId === 'calls-1'));

    const accountId = await defaultAccountId(server);
    const targets = (conf: string) =>
      server.ctx.subscriptions.targetsFor(accountId, 'VOICE_VIDEO', 'CALL_ESTABLISHED', { callsConfigurationId: conf });
    assert.deepEqual(await targets('conf-1'), [{ url: 'https://www.example.com/calls', subscriptionId: 'calls-1' }]);
    assert.deepEqual(await targets('conf-2'), [], 'the second pair wants applicationId too');

    const updated = await server.request('PUT', `${BASE}/VOICE_VIDEO/calls-1`, { body: { events: ['CALL_FINISHED', 'CALL_FAILED'] } });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual((await server.request('GET', `${BASE}/VOICE_VIDEO/calls-1`)).json().events, ['CALL_FINISHED', 'CALL_FAILED']);
  });

  it('checks events against the channel: an SMS event on VOICE_VIDEO and a call event on SMS are 400s; WHATSAPP is not served', async () => {
    const voiceBody = (events: unknown[]) => ({ subscriptionId: 'v-voice', events, profile: { webhook: { notifyUrl: 'https://example.com' } } });
    const smsOnVoice = await server.request('POST', `${BASE}/VOICE_VIDEO`, { body: voiceBody(['CALL_STARTED', 'INBOUND_MESSAGE']) });
    assert.equal(smsOnVoice.status, 400);
    assert.deepEqual(Object.keys(smsOnVoice.json().requestError.serviceException.validationErrors), ['events[1]']);
    assert.match(smsOnVoice.json().requestError.serviceException.validationErrors['events[1]'][0], /^must be one of \[.*CALL_STARTED.*\]$/);

    const voiceOnSms = await create(createExample('v-sms', { events: ['DELIVERY', 'CALL_STARTED'] }));
    assert.deepEqual(voiceOnSms.json(), badRequestNaming('events[1]', 'must be one of [DELIVERY, INBOUND_MESSAGE]'));

    const whatsapp = await server.request('POST', `${BASE}/WHATSAPP`, { body: createExample('v-whatsapp') });
    assert.equal(whatsapp.status, 400);
    assert.deepEqual(Object.keys(whatsapp.json().requestError.serviceException.validationErrors), ['channel']);
    assert.equal((await server.request('GET', `${BASE}/WHATSAPP`)).status, 400);

    assert.equal((await server.request('POST', `${BASE}/VOICE_VIDEO`, { body: voiceBody(['CALL_STARTED']) })).status, 201);
    const smsUpdate = await server.request('PUT', `${BASE}/VOICE_VIDEO/v-voice`, { body: { events: ['DELIVERY', 'INBOUND_MESSAGE'] } });
    assert.equal(smsUpdate.status, 400);
    assert.deepEqual(Object.keys(smsUpdate.json().requestError.serviceException.validationErrors), ['events[1]']);
  });

  it('serves RCS: DELIVERY, SEEN and INBOUND_MESSAGE are pushed, any RCS event is taken, an SMS-only one is not', async () => {
    const rcs = (subscriptionId: string, events: unknown[]) =>
      server.request('POST', `${BASE}/RCS`, { body: createExample(subscriptionId, { events, criteria: [], resources: ['DemoSender'] }) });
    const created = await rcs('rcs-1', ['DELIVERY', 'SEEN', 'INBOUND_MESSAGE']);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.get('location'), `${BASE}/RCS/rcs-1`);
    assert.equal((await rcs('rcs-2', ['TYPING_INDICATOR', 'SUGGESTION'])).status, 201, 'events Switchboard never emits are kept');
    const callEvent = await rcs('rcs-3', ['SEEN', 'CALL_STARTED']);
    assert.equal(callEvent.status, 400);
    assert.deepEqual(Object.keys(callEvent.json().requestError.serviceException.validationErrors), ['events[1]']);

    const listed = (await server.request('GET', `${BASE}/RCS`)).json();
    assert.deepEqual(listed.results.map((s: { subscriptionId: string }) => s.subscriptionId).sort(), ['rcs-1', 'rcs-2']);
    assert.deepEqual((await server.request('GET', `${BASE}/RCS/rcs-1`)).json().events, ['DELIVERY', 'SEEN', 'INBOUND_MESSAGE']);
    assert.equal((await server.request('GET', `${BASE}/SMS/rcs-1`)).status, 404, 'an RCS subscription is not an SMS one');

    const accountId = await defaultAccountId(server);
    for (const event of ['DELIVERY', 'SEEN', 'INBOUND_MESSAGE'] as const) {
      const targets = await server.ctx.subscriptions.targetsFor(accountId, 'RCS', event, { to: 'DemoSender' });
      assert.deepEqual(targets.map((t) => t.subscriptionId), ['rcs-1'], event);
    }
    assert.deepEqual(await server.ctx.subscriptions.targetsFor(accountId, 'RCS', 'SEEN', { to: 'OtherAgent' }), []);
    const smsTargets = await server.ctx.subscriptions.targetsFor(accountId, 'SMS', 'DELIVERY', { to: 'DemoSender' });
    assert.ok(!smsTargets.some((t) => t.subscriptionId.startsWith('rcs-')), 'SMS events never reach RCS subscriptions');
  });

  it('refuses a duplicate subscriptionId with 400', async () => {
    assert.equal((await create(createExample('dup-1'))).status, 201);
    const again = await create(createExample('dup-1'));
    assert.equal(again.status, 400);
    assert.deepEqual(again.json(), badRequestNaming('subscriptionId', 'a subscription with this id already exists'));
  });

  it('keeps accounts apart', async () => {
    assert.equal((await create(createExample('iso-1'))).status, 201);
    const { key } = await otherAccount(server.ctx.store, clock.now());
    assert.equal((await server.request('GET', `${BASE}/SMS/iso-1`, { key })).status, 404);
    assert.equal((await server.request('PUT', `${BASE}/SMS/iso-1`, { key, body: { events: ['DELIVERY'] } })).status, 404);
    assert.equal((await server.request('DELETE', `${BASE}/SMS/iso-1`, { key })).status, 404);
    assert.deepEqual((await server.request('GET', `${BASE}/SMS`, { key })).json().results, []);
    // Profiles are per account too: B cannot reuse A's profile by id.
    const reuse = await create({ subscriptionId: 'iso-2', events: ['DELIVERY'], profile: { profileId: 'NOTIF-iso-1' } }, key);
    assert.equal(reuse.status, 400);
    assert.equal((await create(createExample('iso-1'), key)).status, 201, 'the same id is free in another account');
    assert.equal((await server.request('GET', `${BASE}/SMS/iso-1`)).status, 200);
  });

  it('requires an API key', async () => {
    assert.equal((await server.request('GET', `${BASE}/SMS`, { key: null })).status, 401);
  });
});
