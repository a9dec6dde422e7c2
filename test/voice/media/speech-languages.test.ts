import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  SPEECH_LANGUAGES,
  TWO_FACTOR_SPEECH_LANGUAGES,
  speechLanguageOfTwoFactor,
  speechVoiceFor,
  twoFactorSpeechVoiceFor,
} from '../../../src/voice/media/speech/languages.js';

describe('speech languages', () => {
  it('are the 80 codes of the Calls API, each with an eSpeak voice', () => {
    assert.equal(SPEECH_LANGUAGES.length, 80);
    assert.equal(new Set(SPEECH_LANGUAGES).size, 80);
    for (const language of SPEECH_LANGUAGES) assert.match(speechVoiceFor(language) ?? '', /^([a-z]{2,3}\/)?[a-z]{2,3}(-[A-Za-z0-9]+)*$/, language);
  });

  it('speak regional codes with their own voice where eSpeak has one, else the base language’s', () => {
    assert.equal(speechVoiceFor('en'), 'gmw/en-US');
    assert.equal(speechVoiceFor('en-gb'), 'gmw/en');
    assert.equal(speechVoiceFor('pt-br'), 'roa/pt-BR');
    assert.equal(speechVoiceFor('pt-pt'), 'roa/pt');
    assert.equal(speechVoiceFor('es-mx'), 'roa/es-419');
    assert.equal(speechVoiceFor('fr-ch'), 'roa/fr-CH');
    assert.equal(speechVoiceFor('de-at'), speechVoiceFor('de'));
    assert.equal(speechVoiceFor('zh-tw'), speechVoiceFor('cmn-cn'));
    assert.equal(speechVoiceFor('wls'), 'cel/cy');
  });

  it('know nothing of other codes, nor of inherited property names', () => {
    for (const code of ['xx', 'EN', 'en_US', 'pt_br', '', 'toString', '__proto__', 'constructor']) assert.equal(speechVoiceFor(code), undefined, code);
  });

  it('map 2FA template codes to the same voices', () => {
    assert.equal(TWO_FACTOR_SPEECH_LANGUAGES.length, 22);
    for (const code of TWO_FACTOR_SPEECH_LANGUAGES) {
      const language = speechLanguageOfTwoFactor(code);
      assert.ok(language && SPEECH_LANGUAGES.includes(language), code);
      assert.equal(twoFactorSpeechVoiceFor(code), speechVoiceFor(language));
    }
    assert.equal(speechLanguageOfTwoFactor('pt_br'), 'pt-br');
    assert.equal(twoFactorSpeechVoiceFor('zh_tw'), 'sit/cmn');
    assert.equal(twoFactorSpeechVoiceFor('pt-br'), undefined, 'the 2FA list spells it pt_br');
    assert.equal(twoFactorSpeechVoiceFor('th'), undefined, 'not a 2FA template language');
  });
});
