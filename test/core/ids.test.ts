import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newBulkId, newMessageId, randomHex, timeOrderedUuid } from '../../src/core/ids.js';
import { newVerifyId } from '../../src/verify/verify-ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('generated ids', () => {
  it('are lowercase version-7 UUIDs whose first 48 bits are the time in milliseconds', () => {
    const at = Date.UTC(2025, 2, 4, 10, 15, 30, 123);
    const id = timeOrderedUuid(at);
    assert.match(id, UUID_V7);
    assert.equal(parseInt(id.slice(0, 8) + id.slice(9, 13), 16), at);
    assert.match(newMessageId(), UUID_V7);
    assert.match(newBulkId(), UUID_V7);
  });

  it('sort by creation time across milliseconds and differ within one', () => {
    const earlier = timeOrderedUuid(1_700_000_000_000);
    const later = timeOrderedUuid(1_700_000_000_001);
    assert.ok(earlier < later, `${earlier} sorts before ${later}`);
    const sameMillisecond = new Set(Array.from({ length: 1000 }, () => timeOrderedUuid(1_700_000_000_000)));
    assert.equal(sameMillisecond.size, 1000);
    for (const id of sameMillisecond) assert.equal(id.slice(0, 15), earlier.slice(0, 15), 'the time part follows the time given, not the last one');
  });

  it('give random hex of the length asked, never the same, across refills of the random page and beyond its size', () => {
    const ids = Array.from({ length: 2000 }, () => randomHex(10));
    for (const id of ids) assert.match(id, /^[0-9a-f]{20}$/);
    assert.equal(new Set(ids).size, ids.length, '2 000 ids of 10 bytes span several 4 KB pages');
    assert.match(randomHex(5000), /^[0-9a-f]{10000}$/);
  });

  it('make 2FA ids of 32 upper-case hex characters: the time in milliseconds, then random', () => {
    const at = Date.UTC(2025, 2, 4, 10, 15, 30, 123);
    const ids = Array.from({ length: 500 }, () => newVerifyId(at));
    for (const id of ids) assert.match(id, /^[0-9A-F]{32}$/);
    assert.equal(parseInt(ids[0]!.slice(0, 12), 16), at);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(newVerifyId(at) < newVerifyId(at + 1));
  });
});
