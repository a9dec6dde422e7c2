import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR, STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import { PartReceipts, type MappedState } from '../../../src/network/smpp/part-receipts.js';

const delivered: MappedState = { status: ref(STATUS.DELIVERED_TO_HANDSET), errorId: 0, final: true };
const undeliverable: MappedState = { status: ref(STATUS.UNDELIVERABLE_NOT_DELIVERED), errorId: ERROR.EC_ABSENT_SUBSCRIBER.id, final: true };
const enroute: MappedState = { status: ref(STATUS.PENDING_ENROUTE), errorId: 0, final: false };

describe('PartReceipts', () => {
  it('passes the receipt of a single-part message through under its own id', () => {
    const parts = new PartReceipts();
    assert.equal(parts.register(['a1'], 1000), 'a1');
    assert.equal(parts.size, 0);
    assert.deepEqual(parts.onReceipt('a1', delivered, 5), { carrierMessageId: 'a1', ...delivered, at: 5 });
  });

  it('reports a long message once, when its last part is final', () => {
    const parts = new PartReceipts();
    const id = parts.register(['p1', 'p2', 'p3'], 1000);
    assert.equal(id, 'p1 p2 p3');
    assert.equal(parts.onReceipt('p2', delivered, 1), undefined);
    assert.equal(parts.onReceipt('p1', delivered, 2), undefined);
    assert.deepEqual(parts.onReceipt('p3', delivered, 3), { carrierMessageId: 'p1 p2 p3', ...delivered, at: 3 });
    assert.equal(parts.size, 0, 'a finished message is forgotten');
  });

  it('fails the message with the first part that failed', () => {
    const parts = new PartReceipts();
    parts.register(['p1', 'p2'], 1000);
    parts.onReceipt('p2', undeliverable, 1);
    const receipt = parts.onReceipt('p1', delivered, 2);
    assert.deepEqual(receipt?.status, ref(STATUS.UNDELIVERABLE_NOT_DELIVERED));
    assert.equal(receipt?.errorId, ERROR.EC_ABSENT_SUBSCRIBER.id);
  });

  it('passes an intermediate state on once, and none after a part is final', () => {
    const parts = new PartReceipts();
    parts.register(['p1', 'p2'], 1000);
    assert.equal(parts.onReceipt('p1', enroute, 1)?.carrierMessageId, 'p1 p2');
    assert.equal(parts.onReceipt('p2', enroute, 1), undefined);
    parts.onReceipt('p1', delivered, 2);
    assert.equal(parts.onReceipt('p2', enroute, 3), undefined);
  });

  it('ends a message rebuilt after a restart at its first final part receipt', () => {
    const parts = new PartReceipts();
    parts.register(PartReceipts.splitIds('p1 p2 p3'), 1000, true);
    assert.deepEqual(parts.onReceipt('p3', delivered, 4), { carrierMessageId: 'p1 p2 p3', ...delivered, at: 4 });
  });

  it('forgets long messages past their validity', () => {
    const parts = new PartReceipts();
    parts.register(['p1', 'p2'], 1000);
    parts.sweep(999);
    assert.equal(parts.size, 2);
    parts.sweep(1000);
    assert.equal(parts.size, 0);
    assert.equal(parts.onReceipt('p1', delivered, 1001)?.carrierMessageId, 'p1', 'an unknown part goes through as is');
  });
});
