import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_CONFIGURATION } from '../../src/verify/read/application.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createApplication, legacyError, TEXT } from './verify-fixture.js';

describe('2FA applications and templates over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('creates an application with 200 and every default filled, lists it as a bare array, reads and updates it', async () => {
    const created = await server.request('POST', '/2fa/2/applications', { body: { name: '2fa test application' } });
    assert.equal(created.status, 200, 'answers 200, which the Python SDK needs');
    const application = created.json();
    assert.match(application.applicationId, /^[0-9A-F]{32}$/);
    assert.deepEqual(application, {
      applicationId: application.applicationId,
      name: '2fa test application',
      configuration: {
        pinAttempts: 10,
        allowMultiplePinVerifications: true,
        pinTimeToLive: '15m',
        verifyPinLimit: '1/3s',
        sendPinPerApplicationLimit: '10000/1d',
        sendPinPerPhoneNumberLimit: '3/1d',
      },
      enabled: true,
    });
    const list = await server.request('GET', '/2fa/2/applications');
    assert.ok(Array.isArray(list.json()), 'a bare array, no wrapper');
    assert.deepEqual(list.json().find((a: { applicationId: string }) => a.applicationId === application.applicationId), application);
    assert.deepEqual((await server.request('GET', `/2fa/2/applications/${application.applicationId}`)).json(), application);

    const updated = await server.request('PUT', `/2fa/2/applications/${application.applicationId}`, {
      body: { name: 'Renamed', enabled: false, configuration: { pinAttempts: 5, pinTimeToLive: '2h' } },
    });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(updated.json(), {
      ...application,
      name: 'Renamed',
      enabled: false,
      configuration: { ...application.configuration, pinAttempts: 5, pinTimeToLive: '2h' },
    });
    const unchanged = await server.request('PUT', `/2fa/2/applications/${application.applicationId}`, { body: { name: 'Again' } });
    assert.deepEqual([unchanged.json().enabled, unchanged.json().configuration.pinAttempts], [false, 5], 'fields left out keep their values');

    for (const [method, body] of [['GET'], ['PUT', { name: 'x' }]] as const) {
      const missing = await server.request(method, '/2fa/2/applications/0123456789ABCDEF0123456789ABCDEF', body ? { body } : {});
      assert.deepEqual(legacyError(missing), { status: 404, messageId: 'NOT_FOUND', fields: [] }, method);
    }
  });

  it('refuses time and rate strings outside their grammar and bounds, naming the field', async () => {
    const refused = async (configuration: Record<string, unknown>) => legacyError(await server.request('POST', '/2fa/2/applications', { body: { name: 'x', configuration } }));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ pinTimeToLive: '15 minutes' }, 'configuration.pinTimeToLive'],
      [{ pinTimeToLive: '366d' }, 'configuration.pinTimeToLive'],
      [{ pinTimeToLive: '0m' }, 'configuration.pinTimeToLive'],
      [{ verifyPinLimit: '1/2d' }, 'configuration.verifyPinLimit'],
      [{ verifyPinLimit: '0/3s' }, 'configuration.verifyPinLimit'],
      [{ sendPinPerApplicationLimit: '10000' }, 'configuration.sendPinPerApplicationLimit'],
      [{ sendPinPerPhoneNumberLimit: '3/400d' }, 'configuration.sendPinPerPhoneNumberLimit'],
      [{ pinAttempts: 0 }, 'configuration.pinAttempts'],
      [{ pinAttempts: 'ten' }, 'configuration.pinAttempts'],
    ];
    for (const [configuration, field] of cases) {
      assert.deepEqual(await refused(configuration), { status: 400, messageId: 'BAD_REQUEST', fields: [field] }, JSON.stringify(configuration));
    }
    assert.deepEqual(legacyError(await server.request('POST', '/2fa/2/applications', { body: { configuration: {} } })).fields, ['name']);
    assert.deepEqual(legacyError(await server.request('POST', '/2fa/2/applications', { body: { name: '  ' } })).fields, ['name']);
    // Every form the grammar documents is accepted: a missing length means 1, every unit.
    for (const [pinTimeToLive, verifyPinLimit, sendPinPerApplicationLimit] of [['h', '2/4s', '5000/12h'], ['1000ms', '30/10s', '10000/3d'], ['365d', '5/1h', '1/d']]) {
      const accepted = await server.request('POST', '/2fa/2/applications', { body: { name: 'ok', configuration: { pinTimeToLive, verifyPinLimit, sendPinPerApplicationLimit } } });
      assert.equal(accepted.status, 200, `${pinTimeToLive} ${verifyPinLimit} ${sendPinPerApplicationLimit}: ${accepted.text}`);
    }
  });

  it('creates templates that must hold {{pin}}, fills their defaults, lists, reads and updates them', async () => {
    const appId = await createApplication(server);
    const path = `/2fa/2/applications/${appId}/messages`;
    const created = await server.request('POST', path, { body: { messageText: TEXT, pinType: 'HEX' } });
    assert.equal(created.status, 200, created.text);
    const template = created.json();
    assert.match(template.messageId, /^[0-9A-F]{32}$/);
    assert.deepEqual(template, {
      messageId: template.messageId,
      applicationId: appId,
      messageText: TEXT,
      pinPlaceholder: '{{pin}}',
      pinLength: 4,
      pinType: 'HEX',
      language: 'en',
      speechRate: 1,
    });
    const voice = await server.request('POST', path, {
      body: {
        messageText: 'Kod {{pin}}',
        pinType: 'ALPHANUMERIC',
        pinLength: 8,
        senderId: 'Acme',
        language: 'pt_br',
        voiceName: 'Camila',
        repeatDTMF: '1#',
        speechRate: 0.8,
        regional: { indiaDlt: { principalEntityId: 'PE1', contentTemplateId: 'CT1' } },
      },
    });
    assert.equal(voice.status, 200, voice.text);
    assert.deepEqual(
      [voice.json().language, voice.json().voiceName, voice.json().repeatDTMF, voice.json().speechRate, voice.json().regional],
      ['pt_br', 'Camila', '1#', 0.8, { indiaDlt: { principalEntityId: 'PE1', contentTemplateId: 'CT1' } }],
    );
    const list = (await server.request('GET', path)).json();
    assert.deepEqual(list.map((t: { messageId: string }) => t.messageId), [template.messageId, voice.json().messageId]);
    assert.deepEqual((await server.request('GET', `${path}/${template.messageId}`)).json(), template);

    const updated = await server.request('PUT', `${path}/${template.messageId}`, { body: { pinLength: 6, senderId: 'Bank' } });
    assert.deepEqual(updated.json(), { ...template, pinLength: 6, senderId: 'Bank' }, 'fields left out keep their values');

    const refused = async (method: string, url: string, body: unknown) => legacyError(await server.request(method, url, { body }));
    assert.deepEqual((await refused('POST', path, { messageText: 'no placeholder', pinType: 'NUMERIC' })).fields, ['messageText']);
    assert.deepEqual((await refused('PUT', `${path}/${template.messageId}`, { messageText: 'lost it' })).fields, ['messageText']);
    assert.deepEqual((await refused('POST', path, { messageText: TEXT })).fields, ['pinType']);
    assert.deepEqual((await refused('POST', path, { messageText: TEXT, pinType: 'EMOJI' })).fields, ['pinType']);
    assert.deepEqual((await refused('POST', path, { messageText: TEXT, pinType: 'NUMERIC', pinLength: 0 })).fields, ['pinLength']);
    assert.deepEqual((await refused('POST', path, { messageText: TEXT, pinType: 'NUMERIC', speechRate: 3 })).fields, ['speechRate']);
    assert.deepEqual((await refused('POST', path, { messageText: TEXT, pinType: 'NUMERIC', language: 'pt-br' })).fields, ['language']);
    assert.deepEqual((await refused('POST', path, { messageText: TEXT, pinType: 'NUMERIC', repeatDTMF: 'x' })).fields, ['repeatDTMF']);
    assert.deepEqual((await refused('POST', path, { messageText: TEXT, pinType: 'NUMERIC', regional: { indiaDlt: {} } })).fields, ['regional.indiaDlt.principalEntityId']);

    const unknownApp = await server.request('POST', '/2fa/2/applications/0123456789ABCDEF0123456789ABCDEF/messages', { body: { messageText: TEXT, pinType: 'NUMERIC' } });
    assert.equal(unknownApp.status, 404);
    assert.equal((await server.request('GET', `${path}/0123456789ABCDEF0123456789ABCDEF`)).status, 404);
  });

  it("keeps accounts apart: another account's application and templates are not found", async () => {
    const account = await server.ctx.store.accounts.ensure('other-account', Date.now());
    const now = Date.now();
    await server.ctx.store.twoFactorApplications.create({
      accountId: account.id,
      applicationId: 'THEIRS',
      name: 'Theirs',
      enabled: true,
      configuration: DEFAULT_CONFIGURATION,
      createdAt: now,
      updatedAt: now,
    });
    assert.equal((await server.request('GET', '/2fa/2/applications/THEIRS')).status, 404);
    assert.equal((await server.request('GET', '/2fa/2/applications/THEIRS/messages')).status, 404);
    assert.ok(!(await server.request('GET', '/2fa/2/applications')).json().some((a: { applicationId: string }) => a.applicationId === 'THEIRS'));
  });
});
