import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { audioMs, type Audio } from '../../../src/voice/media/audio.js';
import { SPEECH_LANGUAGES } from '../../../src/voice/media/speech/languages.js';
import { SpeechRequestError, speechCacheKey, type SpeechRequest } from '../../../src/voice/media/speech/speech-request.js';
import { SpeechSynthesizer } from '../../../src/voice/media/speech/speech-synthesizer.js';
import { rms } from './signal.js';

const english = (text: string, more: Partial<SpeechRequest> = {}): SpeechRequest => ({ text, language: 'en', speechRate: 1, ...more });

const refusedAsRequest = (message: RegExp) => (error: unknown): boolean => error instanceof SpeechRequestError && message.test(error.message);

describe('speech synthesis', () => {
  const synthesizer = new SpeechSynthesizer();
  after(() => synthesizer.close());

  it('speaks: audible, at the engine’s rate, longer for longer text', async () => {
    const short = await synthesizer.synthesize(english('Hello.'));
    const long = await synthesizer.synthesize(english('Hello. Your verification code is four two seven one. Goodbye.'));
    assert.equal(short.sampleRate, 22050);
    assert.ok(rms(short.samples) > 500, `rms ${rms(short.samples)}`);
    assert.ok(audioMs(short) > 200 && audioMs(short) < 2000, `${audioMs(short)} ms`);
    assert.ok(audioMs(long) > 2 * audioMs(short), `${audioMs(long)} ms against ${audioMs(short)} ms`);
  });

  it('speaks faster at rate 2 than at rate 0.5', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    const fast = await synthesizer.synthesize(english(text, { speechRate: 2 }));
    const slow = await synthesizer.synthesize(english(text, { speechRate: 0.5 }));
    assert.ok(audioMs(slow) > 2.5 * audioMs(fast), `${audioMs(slow)} ms at 0.5, ${audioMs(fast)} ms at 2`);
  });

  it('gives the same speech again from the cache, without synthesizing it twice', async () => {
    const request = english('Welcome to the cache.');
    const before = synthesizer.stats();
    const first = await synthesizer.synthesize(request);
    const again = await synthesizer.synthesize({ ...request, language: 'en-ca', voiceName: 'Joanna' });
    assert.equal(again, first);
    const after = synthesizer.stats();
    assert.equal(after.synthesized, before.synthesized + 1);
    assert.equal(after.cacheHits, before.cacheHits + 1);
    assert.ok(after.audioMs >= before.audioMs + audioMs(first));
    assert.ok(after.cpuMs > before.cpuMs);
  });

  it('synthesizes concurrent identical requests once', async () => {
    const before = synthesizer.stats();
    const results = await Promise.all(Array.from({ length: 1000 }, () => synthesizer.synthesize(english('Everybody says the same thing.'))));
    assert.ok(results.every((audio) => audio === results[0]));
    assert.equal(synthesizer.stats().synthesized, before.synthesized + 1);
    assert.equal(synthesizer.stats().cacheHits, before.cacheHits + 999);
  });

  it('speaks with a female variant when asked', async () => {
    const male = await synthesizer.synthesize(english('Good morning.', { voiceGender: 'MALE' }));
    const female = await synthesizer.synthesize(english('Good morning.', { voiceGender: 'FEMALE' }));
    assert.notDeepEqual(female.samples, male.samples);
    assert.ok(rms(female.samples) > 500);
    assert.equal(await synthesizer.synthesize(english('Good morning.')), male, 'male is the engine’s own voice');
  });

  it('reads SSML as markup and plain text as written', async () => {
    const plain = await synthesizer.synthesize(english('one two'));
    const withBreak = await synthesizer.synthesize(english('<speak>one <break time="1500ms"/> two</speak>'));
    assert.ok(audioMs(withBreak) - audioMs(plain) > 1200, `${audioMs(withBreak)} ms with a 1.5 s break, ${audioMs(plain)} ms without`);
    const tagsAsText = await synthesizer.synthesize(english('<b>one</b> two'));
    assert.ok(audioMs(tagsAsText) - audioMs(plain) > 300, `tags in plain text are read: ${audioMs(tagsAsText)} ms against ${audioMs(plain)} ms`);
    const word = await synthesizer.synthesize(english('say hello now'));
    const bracketed = await synthesizer.synthesize(english("say [[h@'loU]] now"));
    assert.ok(audioMs(bracketed) - audioMs(word) > 500, `brackets are read as text, not phonemes: ${audioMs(bracketed)} ms against ${audioMs(word)} ms`);
  });

  it('speaks every language of the API', async () => {
    const spoken = await Promise.all(SPEECH_LANGUAGES.map((language) => synthesizer.synthesize({ text: '1 2 3', language, speechRate: 1 })));
    spoken.forEach((audio, i) => assert.ok(audioMs(audio) > 300 && rms(audio.samples) > 500, `${SPEECH_LANGUAGES[i]}: ${audioMs(audio)} ms, rms ${rms(audio.samples)}`));
  });

  it('refuses an unknown language, a rate out of range and text too long, without synthesizing', async () => {
    const before = synthesizer.stats().synthesized;
    await assert.rejects(synthesizer.synthesize(english('Hi', { language: 'tlh' })), refusedAsRequest(/language "tlh"/));
    await assert.rejects(synthesizer.synthesize(english('Hi', { speechRate: 2.5 })), refusedAsRequest(/speechRate/));
    await assert.rejects(synthesizer.synthesize(english('Hi', { speechRate: Number.NaN })), refusedAsRequest(/speechRate/));
    await assert.rejects(synthesizer.synthesize(english('a'.repeat(20_000))), refusedAsRequest(/longer than 16384 bytes/));
    assert.equal(synthesizer.stats().synthesized, before);
  });

  it('keeps the calling thread free while it speaks', async () => {
    let turns = 0;
    let spinning = true;
    const spin = (): void => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    await synthesizer.synthesize(english('This sentence is spoken while the event loop keeps turning. '.repeat(20)));
    spinning = false;
    assert.ok(turns > 10, `${turns} event loop turns during the synthesis`);
  });
});

describe('speech determinism', () => {
  it('gives identical samples for the same request, whatever was spoken before', async () => {
    // Too small a cache to keep anything: every request is synthesized.
    const synthesizer = new SpeechSynthesizer({ cacheBytes: 1 });
    try {
      const request = english('Your code is 1 2 3 4.');
      const first = await synthesizer.synthesize(request);
      await synthesizer.synthesize({ text: '<speak>Something <voice xml:lang="de">ganz anderes</voice>.</speak>', language: 'ru', speechRate: 1.7, voiceGender: 'FEMALE' });
      const second = await synthesizer.synthesize(request);
      assert.notEqual(second, first);
      assert.deepEqual(second.samples, first.samples);
      assert.equal(synthesizer.stats().synthesized, 3);
    } finally {
      await synthesizer.close();
    }
  });

  it('gives the same samples in every process, female variants included', async () => {
    // Digests of this engine build's samples; a different build changes speech keys as well.
    const synthesizer = new SpeechSynthesizer();
    try {
      const digest = async (voiceGender: 'FEMALE' | 'MALE'): Promise<string> => {
        const audio = await synthesizer.synthesize(english('Your code is 1 2 3 4.', { voiceGender }));
        return createHash('sha256').update(audio.samples).digest('hex');
      };
      assert.equal(await digest('FEMALE'), 'c127d94c71858e2f4b937d8b8b3ac45b2b98751d987e0117e7350db6bf6fed0d');
      assert.equal(await digest('MALE'), 'e0b237c8a59cfba6ac2844ce4aa68dcc285434e9efcd37e4d4ee81eb0e8ad2dd');
    } finally {
      await synthesizer.close();
    }
  });

  it('names speech by a short key that changes with what is heard', () => {
    const key = speechCacheKey(english('Hello'));
    assert.match(key, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(speechCacheKey(english('Hello')), key);
    assert.equal(speechCacheKey(english('Hello', { language: 'en-ph', voiceName: 'Matthew', voiceGender: 'MALE' })), key);
    const others = [english('Hello!'), english('Hello', { speechRate: 1.1 }), english('Hello', { voiceGender: 'FEMALE' }), english('Hello', { language: 'en-gb' })].map(speechCacheKey);
    assert.equal(new Set([key, ...others]).size, 5);
    assert.throws(() => speechCacheKey(english('Hello', { language: 'xx' })), SpeechRequestError);
  });
});

describe('speech synthesizer lifecycle', () => {
  it('refuses speech longer than its limit', async () => {
    const synthesizer = new SpeechSynthesizer({ maxSpeechSeconds: 2 });
    try {
      await assert.rejects(synthesizer.synthesize(english('<speak>Wait <break time="3s"/> for it.</speak>')), refusedAsRequest(/longer than 2 s/));
      const audio: Audio = await synthesizer.synthesize(english('Short.'));
      assert.ok(audioMs(audio) < 2000);
    } finally {
      await synthesizer.close();
    }
  });

  it('reports nothing before the first request, and refuses requests once closed', async () => {
    const synthesizer = new SpeechSynthesizer();
    assert.deepEqual(synthesizer.stats(), { synthesized: 0, cacheHits: 0, audioMs: 0, cpuMs: 0 });
    await synthesizer.close();
    await assert.rejects(synthesizer.synthesize(english('Too late.')), /closed/);
  });

  it('fails the requests pending when it is closed', async () => {
    const synthesizer = new SpeechSynthesizer();
    const pending = synthesizer.synthesize(english('This will not be heard.'));
    await synthesizer.close();
    await assert.rejects(pending, /stopped|closed/);
  });
});
