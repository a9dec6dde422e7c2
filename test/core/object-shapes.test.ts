import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { withFields } from '../../src/core/with-fields.js';
import { omitUndefined } from '../../src/core/omit-undefined.js';

/** Runs `body` in a child with V8's natives syntax (%HaveSameMap, %HasFastProperties) and returns what it prints. */
function inV8(body: string): unknown {
  const modules = {
    withFields: new URL('../../src/core/with-fields.js', import.meta.url).href,
    omitUndefined: new URL('../../src/core/omit-undefined.js', import.meta.url).href,
  };
  const script = `
    const { withFields } = await import(${JSON.stringify(modules.withFields)});
    const { omitUndefined } = await import(${JSON.stringify(modules.omitUndefined)});
    ${body}`;
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out);
}

describe('objects made per message', () => {
  it('withFields copies the base with the fields over it, leaving the base alone', () => {
    const base = { id: 'a', state: 'queued', dueAt: 1 };
    const copy = withFields(base, { state: 'dispatching', leaseUntil: 5 });
    assert.deepEqual(copy, { id: 'a', state: 'dispatching', dueAt: 1, leaseUntil: 5 });
    assert.deepEqual(base, { id: 'a', state: 'queued', dueAt: 1 });
  });

  it('omitUndefined drops undefined keys, keeps the order and leaves the input alone', () => {
    const input = { a: 1, b: undefined, c: null, d: 'x', e: undefined };
    const kept = omitUndefined(input);
    assert.deepEqual(Object.keys(kept), ['a', 'c', 'd']);
    assert.deepEqual(kept, { a: 1, c: null, d: 'x' });
    assert.deepEqual(Object.keys(input), ['a', 'b', 'c', 'd', 'e']);
  });

  it('copies made from bases of one shape share one hidden class, and keep fast properties', () => {
    const result = inV8(`
      const base = (i) => { const m = { id: 'm' + i, state: 'queued', dueAt: i }; m.sender = 'S'; return m; };
      const copies = Array.from({ length: 200 }, (_, i) => withFields(base(i), { state: 'dispatching', leaseUntil: i, nodeId: 'n' }));
      const reports = Array.from({ length: 200 }, (_, i) => omitUndefined({ a: i, b: undefined, c: 'x', d: undefined }));
      const rows = Array.from({ length: 200 }, (_, i) => omitUndefined({ a: i, b: undefined, c: 'x' }));
      const oneClass = (list) => list.every((o) => %HaveSameMap(o, list[0]));
      const fast = (list) => list.every((o) => %HasFastProperties(o));
      console.log(JSON.stringify({
        copies: oneClass(copies), reports: oneClass(reports), rows: oneClass(rows),
        fast: fast(copies) && fast(reports) && fast(rows),
      }));`);
    assert.deepEqual(result, { copies: true, reports: true, rows: true, fast: true });
  });
});
