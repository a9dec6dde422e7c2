import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiProblem } from '../../src/core/errors/api-problem.js';
import { arrayParam, MAX_ARRAY_PARAM_LENGTH, timeParam } from '../../src/core/query-params.js';

const T = Date.UTC(2025, 2, 4, 10, 15, 30);

function violationOf(action: () => unknown): { property: string; status: number } {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof ApiProblem);
    assert.equal(error.violations.length, 1);
    return { property: error.violations[0]!.property, status: error.statusCode };
  }
  assert.fail('expected an ApiProblem');
}

describe('arrayParam', () => {
  it('accepts repeated values, comma-separated values and both mixed', () => {
    assert.deepEqual(arrayParam('bulkId', ['a', 'b']), ['a', 'b']);
    assert.deepEqual(arrayParam('bulkId', 'a,b'), ['a', 'b']);
    assert.deepEqual(arrayParam('bulkId', ['a,b', 'c']), ['a', 'b', 'c']);
  });

  it('trims items, drops blanks and duplicates, and is undefined when nothing remains', () => {
    assert.deepEqual(arrayParam('bulkId', [' a , ,b', 'a']), ['a', 'b']);
    assert.equal(arrayParam('bulkId', ''), undefined);
    assert.equal(arrayParam('bulkId', [',', ' ']), undefined);
    assert.equal(arrayParam('bulkId', undefined), undefined);
  });

  it('rejects a parameter longer than 2048 characters, naming it', () => {
    const ok = 'x'.repeat(MAX_ARRAY_PARAM_LENGTH);
    assert.deepEqual(arrayParam('messageId', ok), [ok]);
    const problem = violationOf(() => arrayParam('messageId', ['a', `${ok}y`]));
    assert.deepEqual(problem, { property: 'messageId', status: 400 });
  });
});

describe('timeParam', () => {
  it('accepts every input form of an Infobip timestamp', () => {
    for (const text of [
      '2025-03-04T10:15:30.000+0000',
      '2025-03-04T10:15:30.000+00:00',
      '2025-03-04T10:15:30Z',
      '2025-03-04T10:15:30.000000+0000',
      '2025-03-04T10:15:30',
      '2025-03-04T11:15:30.000+0100',
    ]) {
      assert.equal(timeParam('sentSince', text), T, text);
    }
  });

  it('reads a space before the offset as a plus sign lost in URL decoding', () => {
    assert.equal(timeParam('sentSince', '2025-03-04T10:15:30.000 0000'), T);
    assert.equal(timeParam('sentSince', '2025-03-04T12:15:30.000000 0200'), T);
    assert.equal(timeParam('sentSince', '2025-03-04T12:15:30 02:00'), T);
  });

  it('treats an absent or blank parameter as not given', () => {
    assert.equal(timeParam('sentSince', undefined), undefined);
    assert.equal(timeParam('sentSince', '  '), undefined);
  });

  it('rejects anything else with a 400 naming the parameter', () => {
    for (const text of ['yesterday', '2025-13-01T00:00:00', '2025-03-04T10:15:30.000 abc', '2025-03-04 0000', '1741083330000']) {
      assert.deepEqual(violationOf(() => timeParam('sentUntil', text)), { property: 'sentUntil', status: 400 }, text);
    }
  });
});
