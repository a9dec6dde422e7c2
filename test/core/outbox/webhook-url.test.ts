import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateWebhookUrl } from '../../../src/core/webhook-url.js';

describe('validateWebhookUrl', () => {
  it('accepts absolute http and https URLs with ports, paths and queries', () => {
    for (const url of [
      'https://www.example.com/pushme',
      'http://127.0.0.1:8080/hook?token=abc&x=1',
      'https://[::1]:8443/dlr',
      `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`,
    ]) {
      assert.equal(validateWebhookUrl(url), undefined, url);
    }
  });

  it('names what is wrong with anything else', () => {
    const cases: Array<[string, string]> = [
      ['', 'must not be blank'],
      [`https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`, 'size must be between 1 and 2048'],
      ['https://example.com/a b', 'must not contain whitespace'],
      ['https://example.com/\tx', 'must not contain whitespace'],
      ['/relative/path', 'must be an absolute http or https URL'],
      ['example.com/hook', 'must be an absolute http or https URL'],
      ['ftp://example.com/hook', 'must be an absolute http or https URL'],
      ['mailto:someone@example.com', 'must be an absolute http or https URL'],
      ['https://user:pass@example.com/hook', 'must not contain credentials'],
      ['https://user@example.com/hook', 'must not contain credentials'],
      ['http://', 'must be an absolute http or https URL'],
    ];
    for (const [url, problem] of cases) assert.equal(validateWebhookUrl(url), problem, url);
  });
});
