import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReceiptQueue } from '../../../src/network/sandbox/receipt-queue.js';

const receipt = (id: string, at: number, final = true) => ({ carrierMessageId: id, status: { groupId: 3, id: 5 }, errorId: 0, final, at });

describe('ReceiptQueue', () => {
  it('releases only due receipts, in time order', () => {
    const queue = new ReceiptQueue();
    for (const [id, at] of [['c', 30], ['a', 10], ['d', 40], ['b', 20]] as const) queue.push(receipt(id, at));
    assert.deepEqual(queue.takeDue(5), []);
    assert.deepEqual(queue.takeDue(20).map((r) => r.carrierMessageId), ['a', 'b']);
    assert.equal(queue.size, 2);
    assert.deepEqual(queue.takeDue(100).map((r) => r.carrierMessageId), ['c', 'd']);
    assert.equal(queue.size, 0);
  });

  it('keeps insertion order for equal times', () => {
    const queue = new ReceiptQueue();
    for (let i = 0; i < 50; i++) queue.push(receipt(`r${i}`, i % 2 === 0 ? 7 : 3, i % 3 === 0));
    const out = queue.takeDue(7).map((r) => r.carrierMessageId);
    const odd = Array.from({ length: 25 }, (_, k) => `r${2 * k + 1}`);
    const even = Array.from({ length: 25 }, (_, k) => `r${2 * k}`);
    assert.deepEqual(out, [...odd, ...even]);
  });

  it('sorts a large random backlog', () => {
    const queue = new ReceiptQueue();
    const times = Array.from({ length: 2000 }, (_, i) => (i * 7919) % 1000);
    times.forEach((at, i) => queue.push(receipt(String(i), at)));
    const out = queue.takeDue(1000).map((r) => r.at);
    assert.deepEqual(out, [...times].sort((x, y) => x - y));
  });
});
