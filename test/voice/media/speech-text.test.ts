import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { engineText, isSsml } from '../../../src/voice/media/speech/speech-text.js';

describe('speech text', () => {
  it('is SSML only as a <speak> document', () => {
    assert.ok(isSsml('<speak>Hello</speak>'));
    assert.ok(isSsml('  <speak version="1.0" xml:lang="en-US">Hi</speak>'));
    assert.ok(isSsml('<?xml version="1.0"?>\n<speak>Hi</speak>'));
    assert.ok(!isSsml('Hello <speak>'));
    assert.ok(!isSsml('<speaker>x</speaker>'));
    assert.ok(!isSsml('a < b'));
  });

  it('escapes plain text so that nothing in it is read as markup', () => {
    assert.equal(engineText('a < b & c > d'), 'a &lt; b &amp; c &gt; d');
    assert.equal(engineText('<b>bold</b> &amp;'), '&lt;b&gt;bold&lt;/b&gt; &amp;amp;');
  });

  it('keeps SSML as it is', () => {
    assert.equal(engineText('<speak>Hi <break time="1s"/> &amp; bye</speak>'), '<speak>Hi <break time="1s"/> &amp; bye</speak>');
  });

  it('splits double brackets, which the engine would read as phoneme codes, and drops NUL', () => {
    assert.equal(engineText("[[h@'loU]]"), "[ [h@'loU]]");
    assert.equal(engineText('[[[x'), '[ [ [x');
    assert.equal(engineText('<speak>[[x]]</speak>'), '<speak>[ [x]]</speak>');
    assert.equal(engineText('a\0b'), 'a b');
  });
});
