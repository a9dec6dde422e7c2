import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { derivePin, isPin, pinDigest, spokenPin } from '../../src/verify/pin-codes.js';
import { fillTemplate } from '../../src/verify/read/template.js';
import { newVerifyId } from '../../src/verify/verify-ids.js';

describe('PIN codes', () => {
  const key = randomBytes(32);

  it('derives the same PIN for a pinId under one key, another under another key, in the alphabet and length asked', () => {
    const pinId = newVerifyId();
    assert.equal(derivePin(key, pinId, 'NUMERIC', 6), derivePin(key, pinId, 'NUMERIC', 6));
    const others = new Set(Array.from({ length: 20 }, () => derivePin(randomBytes(32), pinId, 'NUMERIC', 12)));
    assert.equal(others.size, 20, 'the key decides the PIN');
    assert.match(derivePin(key, pinId, 'ALPHA', 16), /^[A-Z]{16}$/);
    assert.match(derivePin(key, pinId, 'HEX', 16), /^[0-9A-F]{16}$/);
    assert.match(derivePin(key, pinId, 'ALPHANUMERIC', 16), /^[0-9A-Z]{16}$/);
    assert.match(derivePin(key, pinId, 'NUMERIC', 1), /^[0-9]$/);
  });

  it('spreads digits evenly: no digit is favoured (chi-square over 100 000 digits)', () => {
    // A fixed key and pinIds make the sample, and so the test, deterministic.
    const fixedKey = Buffer.alloc(32, 7);
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) for (const digit of derivePin(fixedKey, `PIN${i}`, 'NUMERIC', 10)) counts[Number(digit)]!++;
    const expected = 10_000;
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    // 9 degrees of freedom: a fair source exceeds 27.9 once in a thousand samples.
    assert.ok(chiSquare < 27.9, `chi-square ${chiSquare.toFixed(1)} over ${counts.join(', ')}`);
  });

  it('checks a guess against the keyed hash, letters in any case, and the hash is bound to its pinId', () => {
    const pinId = newVerifyId();
    const digest = pinDigest(key, pinId, 'A1B2');
    assert.equal(isPin(key, pinId, 'A1B2', digest), true);
    assert.equal(isPin(key, pinId, 'a1b2', digest), true);
    assert.equal(isPin(key, pinId, 'A1B3', digest), false);
    assert.equal(isPin(key, newVerifyId(), 'A1B2', digest), false, 'the same PIN under another pinId');
    assert.equal(isPin(randomBytes(32), pinId, 'A1B2', digest), false, 'another key');
    assert.ok(!digest.includes('A1B2') && digest.length === 64);
  });

  it('fills templates: the PIN, spaced for voice, the placeholders given, and leaves unknown ones', () => {
    assert.equal(spokenPin('4821'), '4 8 2 1');
    assert.equal(fillTemplate('{{name}}: {{pin}} ({{pin}}) {{other}}', '4821', { name: 'Ana' }), 'Ana: 4821 (4821) {{other}}');
    assert.equal(fillTemplate('{{pin}} {{constructor}}', '1', {}), '1 {{constructor}}', 'only own keys are values');
  });
});
