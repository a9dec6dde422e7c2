import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatInfobipTime, parseInfobipTime } from '../../src/core/infobip-time.js';

describe('Infobip timestamps', () => {
  const instant = Date.UTC(2025, 2, 4, 10, 15, 30, 0);

  it('formats with milliseconds and an offset without a colon', () => {
    assert.equal(formatInfobipTime(instant), '2025-03-04T10:15:30.000+0000');
    assert.equal(formatInfobipTime(Date.UTC(2025, 11, 31, 23, 59, 59, 7)), '2025-12-31T23:59:59.007+0000');
  });

  it('accepts every input form the SDKs send', () => {
    for (const text of [
      '2025-03-04T10:15:30.000+0000',
      '2025-03-04T10:15:30.000+00:00',
      '2025-03-04T10:15:30Z',
      '2025-03-04T10:15:30.000000+0000',
      '2025-03-04T10:15:30',
      '2025-03-04T12:15:30.000+0200',
      '2025-03-04T05:15:30.000-05:00',
    ]) {
      assert.equal(parseInfobipTime(text), instant, text);
    }
  });

  it('rejects what is not a timestamp', () => {
    for (const text of ['', 'tomorrow', '2025-13-01T00:00:00Z', '2025-02-30T00:00:00Z', '2025-03-04T25:00:00Z', '1741083330000', '0025-03-04T10:15:30Z']) {
      assert.equal(parseInfobipTime(text), undefined, text);
    }
  });
});
