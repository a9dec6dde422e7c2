import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { previewText } from '../../src/sms/preview.js';
import type { ApiProblem } from '../../src/core/errors/api-problem.js';

describe('previewText', () => {
  it('previews a 60-character GSM text as one part with 100 characters remaining', () => {
    const text = 'Let us see how many characters remain unused in this SMS!!!!';
    assert.equal(text.length, 60);
    assert.deepEqual(previewText({ text }), {
      originalText: text,
      previews: [{ textPreview: text, messageCount: 1, charactersRemaining: 100, configuration: {} }],
    });
  });

  it('adds a transliterated preview', () => {
    const result = previewText({ text: 'Şişli', transliteration: 'TURKISH' });
    assert.equal(result.previews.length, 2);
    assert.deepEqual(result.previews[0], {
      textPreview: 'Şişli',
      messageCount: 1,
      charactersRemaining: 65,
      configuration: {},
    });
    assert.deepEqual(result.previews[1], {
      textPreview: 'Sisli',
      messageCount: 1,
      charactersRemaining: 155,
      configuration: { transliteration: 'TURKISH' },
    });
  });

  it('adds a language preview counted with the single shift table', () => {
    const result = previewText({ text: 'Şişli', languageCode: 'TR' });
    assert.equal(result.previews.length, 2);
    assert.deepEqual(result.previews[1], {
      textPreview: 'Şişli',
      messageCount: 1,
      // Ş and ş take two septets each; the shift IE leaves 155 septets.
      charactersRemaining: 148,
      configuration: { language: { languageCode: 'TR' } },
    });
  });

  it('adds transliteration, language and combined previews in that order', () => {
    const result = previewText({ text: 'Şişli', languageCode: 'TR', transliteration: 'TURKISH' });
    assert.equal(result.originalText, 'Şişli');
    assert.deepEqual(
      result.previews.map((p) => p.configuration),
      [
        {},
        { transliteration: 'TURKISH' },
        { language: { languageCode: 'TR' } },
        { language: { languageCode: 'TR' }, transliteration: 'TURKISH' },
      ],
    );
    assert.deepEqual(
      result.previews.map((p) => p.textPreview),
      ['Şişli', 'Sisli', 'Şişli', 'Sisli'],
    );
    assert.equal(result.previews[3]?.charactersRemaining, 155);
  });

  it('counts parts of long texts', () => {
    const result = previewText({ text: 'ж'.repeat(71), transliteration: 'CYRILLIC' });
    assert.equal(result.previews[0]?.messageCount, 2);
    assert.equal(result.previews[0]?.charactersRemaining, 63);
    assert.equal(result.previews[1]?.textPreview, 'zh'.repeat(71));
    assert.equal(result.previews[1]?.messageCount, 1);
    assert.equal(result.previews[1]?.charactersRemaining, 18);
  });

  it('treats NONE as no option', () => {
    const result = previewText({ text: 'hello', languageCode: 'NONE', transliteration: 'NONE' });
    assert.equal(result.previews.length, 1);
  });

  it('previews empty text as one part', () => {
    assert.deepEqual(previewText({ text: '' }).previews, [
      { textPreview: '', messageCount: 1, charactersRemaining: 160, configuration: {} },
    ]);
  });

  it('rejects unknown codes', () => {
    assert.throws(() => previewText({ text: 'x', languageCode: 'XX' }), (e: ApiProblem) =>
      e.statusCode === 400 && e.violations[0]!.property === 'languageCode' && /"XX"/.test(e.violations[0]!.violation));
    assert.throws(() => previewText({ text: 'x', transliteration: 'turkish' }), (e: ApiProblem) =>
      e.statusCode === 400 && e.violations[0]!.property === 'transliteration');
  });
});
