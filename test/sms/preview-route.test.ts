import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('POST /sms/1/preview', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('previews the text as is', async () => {
    const text = "Let's see how many characters remain unused in this message.";
    const response = await server.request('POST', '/sms/1/preview', { body: { text } });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.json(), {
      originalText: text,
      previews: [{ textPreview: text, messageCount: 1, charactersRemaining: 100, configuration: {} }],
    });
  });

  it('adds language and transliteration variants', async () => {
    const response = await server.request('POST', '/sms/1/preview', { body: { text: 'Ωμέγα şğı', languageCode: 'TR', transliteration: 'GREEK' } });
    assert.equal(response.status, 200, response.text);
    const previews = response.json().previews as Array<{ configuration: unknown }>;
    assert.deepEqual(previews.map((p) => p.configuration), [
      {},
      { transliteration: 'GREEK' },
      { language: { languageCode: 'TR' } },
      { language: { languageCode: 'TR' }, transliteration: 'GREEK' },
    ]);
  });

  it('answers bad input with a legacy 400 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'text'],
      [{ text: 5 }, 'text'],
      [{ text: 'x', languageCode: 'XX' }, 'languageCode'],
      [{ text: 'x', transliteration: 'KLINGON' }, 'transliteration'],
    ];
    for (const [body, property] of cases) {
      const response = await server.request('POST', '/sms/1/preview', { body });
      assert.equal(response.status, 400, response.text);
      const exception = response.json().requestError.serviceException;
      assert.equal(exception.messageId, 'BAD_REQUEST');
      assert.ok(exception.validationErrors[property], response.text);
    }
    const malformed = await server.request('POST', '/sms/1/preview', { rawBody: '{', headers: { 'content-type': 'application/json' } });
    assert.equal(malformed.status, 400);
  });
});
