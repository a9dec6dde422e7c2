import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/core/json-body.js';
import { findUnstorableText } from '../../src/core/text-safety.js';

const unstorablePath = (value: unknown): string | undefined => {
  const found = findUnstorableText(value);
  return found?.kind === 'unstorable' ? found.property : found?.kind;
};

const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { k: value };
  return value;
};
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('unstorable text', () => {
  it('finds NUL and unpaired surrogates, with the property path', () => {
    assert.equal(unstorablePath({ messages: [{ content: { text: 'ok 😀' } }] }), undefined);
    assert.equal(unstorablePath({ messages: [{ content: { text: 'a\u0000b' } }] }), 'messages[0].content.text');
    assert.equal(unstorablePath({ messages: [{ sender: '\uD83D' }] }), 'messages[0].sender');
    assert.equal(unstorablePath({ text: '\uDE00 alone' }), 'text');
    assert.equal(unstorablePath('\u0000'), 'body');
    assert.equal(unstorablePath({ ['a\u0000']: 'key' }), 'body');
    assert.equal(unstorablePath({ list: [{ ['\uD800']: 1 }] }), 'list[0]');
  });

  it('walks no deeper than the JSON depth bound, and says so', () => {
    assert.equal(unstorablePath(nested(MAX_JSON_DEPTH + 1, 'a\u0000')), 'too-deep');
    assert.match(unstorablePath(nested(MAX_JSON_DEPTH, 'a\u0000'))!, /^\[0\]\.k\[0\]\.k/);
    assert.equal(unstorablePath(nested(MAX_JSON_DEPTH, 'clean')), undefined);
    assert.equal(unstorablePath(nested(5000, 'x')), 'too-deep');
  });

  it('measures the nesting of JSON text without parsing it, ignoring brackets in strings', () => {
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    assert.equal(nestsDeeperThan(deep, MAX_JSON_DEPTH), true);
    assert.equal(nestsDeeperThan(deep.slice(1, -1), MAX_JSON_DEPTH), false);
    assert.equal(nestsDeeperThan(JSON.stringify({ text: '['.repeat(500) }), MAX_JSON_DEPTH), false);
    assert.equal(nestsDeeperThan(JSON.stringify({ text: '\\"' + '{'.repeat(500) }), MAX_JSON_DEPTH), false);
    assert.equal(nestsDeeperThan(`{"a":"\\\\"${'['.repeat(100)}`, MAX_JSON_DEPTH), true);
  });

  describe('over HTTP', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.close());

    it('is a 400 naming the field on every store driver, in bodies and query strings', async () => {
      const sent = await server.request('POST', '/sms/3/messages', {
        rawBody: '{"messages":[{"destinations":[{"to":"41793026727"}],"content":{"text":"x\\u0000y"}}]}',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(sent.status, 400);
      assert.deepEqual(sent.json().violations, [
        { property: 'messages[0].content.text', violation: 'must not contain NUL characters or unpaired surrogates' },
      ]);
      const logs = await server.request('GET', '/sms/3/logs?sender=%00');
      assert.equal(logs.status, 400);
      assert.equal(logs.json().violations[0].property, 'sender');
      const inbound = await server.request('POST', '/sandbox/1/sms/inbound', {
        rawBody: '{"from":"41793026727","to":"4477","text":"\\ud83d"}',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(inbound.status, 400);
      assert.ok(inbound.json().requestError.serviceException.validationErrors.text);
    });
  });
});
