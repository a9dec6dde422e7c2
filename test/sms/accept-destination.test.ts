import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDestination } from '../../src/sms/accept/destination.js';

describe('checkDestination', () => {
  it('accepts international numbers with an optional +, spaces and dashes, as bare digits', () => {
    assert.deepEqual(checkDestination('41793026727'), { ok: true, number: '41793026727' });
    assert.deepEqual(checkDestination('+41793026727'), { ok: true, number: '41793026727' });
    assert.deepEqual(checkDestination(' +385 98-123-4567 '), { ok: true, number: '385981234567' });
    assert.deepEqual(checkDestination('123'), { ok: true, number: '123' });
    assert.deepEqual(checkDestination('123456789012345'), { ok: true, number: '123456789012345' });
  });

  it('reports an empty destination as missing', () => {
    assert.deepEqual(checkDestination(''), { ok: false, reason: 'MISSING_TO' });
    assert.deepEqual(checkDestination('   '), { ok: false, reason: 'MISSING_TO' });
  });

  it('rejects letters, other symbols, and too few or too many digits', () => {
    for (const to of ['InfoSMS', '4179302672a', '++41793026727', '41 79 (302)', '12', '1234567890123456', '+', '41.79.302']) {
      assert.deepEqual(checkDestination(to), { ok: false, reason: 'REJECTED_DESTINATION' }, to);
    }
  });
});
