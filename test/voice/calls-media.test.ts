import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Mp3Encoder } from '@breezystack/lamejs';
import { encodeWav } from '../../src/voice/media/codecs/wav-encoder.js';
import { eventually } from '../helpers/server.js';
import { VoiceFixture } from './voice-fixture.js';

/** Half a second of a 440 Hz tone at 8 kHz, as WAV bytes. */
function toneWav(ms: number): Uint8Array {
  const sampleRate = 8000;
  const samples = new Int16Array((sampleRate * ms) / 1000);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate));
  return encodeWav({ sampleRate, samples });
}

/** A second of a 440 Hz tone at 22.05 kHz, as MP3 bytes. */
function toneMp3(): Buffer {
  const sampleRate = 22050;
  const samples = new Int16Array(sampleRate);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate));
  const encoder = new Mp3Encoder(1, sampleRate, 64);
  const parts = [];
  for (let at = 0; at < samples.length; at += 1152) parts.push(encoder.encodeBuffer(samples.subarray(at, at + 1152)));
  parts.push(encoder.flush());
  return Buffer.concat(parts.map((part) => new Uint8Array(part.buffer, part.byteOffset, part.byteLength)));
}

/** A local server for play URLs: /tone.wav, /tone.mp3, /missing (404), /text (not audio). */
async function audioServer(): Promise<{ url: string; close(): Promise<void> }> {
  const wav = Buffer.from(toneWav(500));
  const mp3 = toneMp3();
  const server = http.createServer((request, response) => {
    if (request.url === '/tone.wav') response.writeHead(200, { 'content-type': 'audio/wav' }).end(wav);
    else if (request.url === '/tone.mp3') response.writeHead(200, { 'content-type': 'audio/mpeg' }).end(mp3);
    else if (request.url === '/text') response.writeHead(200, { 'content-type': 'text/plain' }).end('not audio at all');
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function upload(voice: VoiceFixture, bytes: Uint8Array, name: string): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  return fetch(`${voice.server.url}/calls/1/files`, { method: 'POST', body: form, headers: { authorization: `App ${voice.server.apiKey}` } });
}

describe('playing audio on calls, and audio files, over HTTP', () => {
  let voice: VoiceFixture;
  let audio: { url: string; close(): Promise<void> };
  before(async () => {
    voice = await VoiceFixture.start();
    audio = await audioServer();
  });
  after(async () => {
    await voice.close();
    await audio.close();
  });

  const answeredCall = async (): Promise<string> => {
    const id = await voice.call('41793026727');
    await voice.event(id, 'CALL_ESTABLISHED');
    return id;
  };

  it('plays a WAV from a URL for its measured length, looped and cut by a timeout', async () => {
    const id = await answeredCall();
    assert.equal((await voice.action(id, 'play', { content: { type: 'URL', fileUrl: `${audio.url}/tone.wav` }, loopCount: 3, timeout: 1200 })).status, 200);
    const played = await voice.event(id, 'PLAY_FINISHED');
    assert.deepEqual(played.properties, { duration: 1200, playedCompletely: true });
    const entry = (await voice.server.request('GET', `/sandbox/1/calls/${id}/timeline`)).json().entries.find((e: { type: string }) => e.type === 'PLAY');
    assert.deepEqual([entry.url, entry.lengthMs, entry.loopCount], [`${audio.url}/tone.wav`, 1200, 3]);
  });

  it('plays an MP3 from a URL for about its length, and the recording holds it', async () => {
    const id = await answeredCall();
    await voice.action(id, 'play', { content: { type: 'URL', fileUrl: `${audio.url}/tone.mp3` } });
    const duration = (await voice.event(id, 'PLAY_FINISHED')).properties?.duration as number;
    // MP3 frames pad the start and end of what was encoded.
    assert.ok(duration >= 1000 && duration < 1150, `duration ${duration} ms`);
    await voice.action(id, 'hangup', {});
    await voice.event(id, 'CALL_FINISHED');
    const wav = Buffer.from(await (await fetch(`${voice.server.url}/sandbox/1/calls/${id}/audio`, { headers: { authorization: `App ${voice.server.apiKey}` } })).arrayBuffer());
    const samples = new Int16Array(wav.buffer, wav.byteOffset + 44, (wav.length - 44) >> 1);
    const loud = samples.reduce((n, x) => n + (Math.abs(x) > 4000 ? 1 : 0), 0);
    assert.ok(loud > 22050 * 0.5, `the tone is heard: ${loud} loud samples`);
  });

  it('ends a play whose audio cannot be fetched or decoded with an ERROR event, and the call goes on', async () => {
    const id = await answeredCall();
    await voice.action(id, 'play', { content: { type: 'URL', fileUrl: `${audio.url}/missing` } });
    await voice.action(id, 'play', { content: { type: 'URL', fileUrl: `${audio.url}/text` } });
    await voice.action(id, 'say', { text: 'still here', language: 'en' });
    await voice.event(id, 'SAY_FINISHED');
    const errors = voice.events(id).filter((e) => e.type === 'ERROR').map((e) => e.properties);
    assert.deepEqual(errors, [
      { actionType: 'PLAY', errorCode: 'MEDIA_ERROR', errorDetails: 'HTTP 404' },
      { actionType: 'PLAY', errorCode: 'MEDIA_ERROR', errorDetails: 'not a WAV or MP3 file' },
    ]);
    const call = (await voice.server.request('GET', `/calls/1/calls/${id}`)).json();
    assert.equal(call.state, 'ESTABLISHED');
  });

  it('plays from an offset: PLAY_FINISHED, the timeline and the recording hold only what followed it', async () => {
    const id = await answeredCall();
    const tone = { type: 'URL', fileUrl: `${audio.url}/tone.wav` };
    await voice.action(id, 'play', { content: tone, offset: 200 });
    await voice.action(id, 'play', { content: tone, offset: 200, loopCount: 2 });
    await eventually(async () => (voice.types(id).filter((t) => t === 'PLAY_FINISHED').length === 2 ? true : undefined));
    assert.deepEqual(
      voice.events(id).filter((e) => e.type === 'PLAY_FINISHED').map((e) => e.properties),
      [{ duration: 300, playedCompletely: true }, { duration: 600, playedCompletely: true }],
      'the 500 ms tone from 200 ms in, once and twice',
    );
    const entries = (await voice.server.request('GET', `/sandbox/1/calls/${id}/timeline`)).json().entries.filter((e: { type: string }) => e.type === 'PLAY');
    assert.deepEqual(entries.map((e: { lengthMs: number; offsetMs: number }) => [e.lengthMs, e.offsetMs]), [[300, 200], [600, 200]]);
    await voice.action(id, 'hangup', {});
    await voice.event(id, 'CALL_FINISHED');
    const wav = Buffer.from(await (await fetch(`${voice.server.url}/sandbox/1/calls/${id}/audio`, { headers: { authorization: `App ${voice.server.apiKey}` } })).arrayBuffer());
    const samples = new Int16Array(wav.buffer, wav.byteOffset + 44, (wav.length - 44) >> 1);
    // A sine is above half its amplitude for two thirds of the time: 900 ms of tone were heard, not 1 500.
    const toneMs = samples.reduce((n, x) => n + (Math.abs(x) > 4000 ? 1 : 0), 0) / (22.05 * (2 / 3));
    assert.ok(Math.abs(toneMs - 900) < 30, `${Math.round(toneMs)} ms of tone in the recording`);
  });

  it('fails a DTMF capture whose prompt cannot be fetched with an ERROR naming CAPTURE_DTMF; the call goes on and captures again', async () => {
    const id = await answeredCall();
    const capture = await voice.action(id, 'capture/dtmf', { maxLength: 2, timeout: 5000, playContent: { type: 'URL', fileUrl: `${audio.url}/missing` } });
    assert.equal(capture.status, 200, capture.text);
    const error = await voice.event(id, 'ERROR');
    assert.deepEqual(error.properties, { actionType: 'CAPTURE_DTMF', errorCode: 'MEDIA_ERROR', errorDetails: 'HTTP 404' });
    const again = await voice.action(id, 'capture/dtmf', { maxLength: 2, timeout: 5000 });
    assert.equal(again.status, 200, 'the failed capture is over, so another may start');
    assert.equal((await voice.server.request('POST', `/sandbox/1/calls/${id}/dtmf`, { body: { digits: '42' } })).status, 200);
    assert.deepEqual((await voice.event(id, 'DTMF_CAPTURED')).properties, { dtmf: '42', timeout: false });
    assert.deepEqual(voice.types(id), ['CALL_STARTED', 'CALL_RINGING', 'CALL_ESTABLISHED', 'ERROR', 'DTMF_CAPTURED']);
  });

  it('uploads a file, lists and plays it, and deletes it', async () => {
    const response = await upload(voice, toneWav(1000), 'greeting.wav');
    assert.equal(response.status, 200);
    const file = (await response.json()) as Record<string, unknown>;
    assert.deepEqual([file.name, file.fileFormat, file.duration, file.size], ['greeting.wav', 'WAV', 1, toneWav(1000).byteLength]);
    assert.match(String(file.expirationTime), /^\d{4}-\d{2}-\d{2}T/);
    const listed = (await voice.server.request('GET', '/calls/1/files')).json();
    assert.ok(listed.results.some((f: { id: string }) => f.id === file.id));
    assert.equal(listed.paging.totalResults >= 1, true);

    const id = await answeredCall();
    await voice.action(id, 'play', { content: { type: 'FILE', fileId: file.id } });
    assert.deepEqual((await voice.event(id, 'PLAY_FINISHED')).properties, { duration: 1000, playedCompletely: true });
    await voice.action(id, 'play', { content: { type: 'FILE', fileId: 'no-such-file' } });
    assert.match((await voice.event(id, 'ERROR')).properties?.errorDetails, /no-such-file/);

    assert.equal((await voice.server.request('DELETE', `/calls/1/files/${String(file.id)}`)).status, 200);
    assert.equal((await voice.server.request('GET', `/calls/1/files/${String(file.id)}`)).status, 404);
  });

  it('refuses uploads that are not audio, too large or not multipart, naming the file', async () => {
    const notAudio = await upload(voice, new TextEncoder().encode('hello'), 'hello.wav');
    assert.equal(notAudio.status, 400);
    assert.deepEqual(((await notAudio.json()) as any).requestError.serviceException.validationErrors, { file: ['not a WAV or MP3 file'] });
    const tooLarge = await upload(voice, new Uint8Array(10 * 1024 * 1024 + 1), 'big.wav');
    assert.equal(tooLarge.status, 400);
    assert.ok(((await tooLarge.json()) as any).requestError.serviceException.validationErrors.file);
    const json = await voice.server.request('POST', '/calls/1/files', { body: { file: 'abc' } });
    assert.equal(json.status, 400);
  });

  it('refuses play and say bodies that break the contract, naming the field', async () => {
    const id = await answeredCall();
    const refused = async (action: string, body: unknown): Promise<string[]> => {
      const response = await voice.action(id, action, body);
      assert.equal(response.status, 400, response.text);
      return Object.keys(response.json.requestError.serviceException.validationErrors);
    };
    assert.deepEqual(await refused('play', { content: { type: 'URL', fileUrl: 'ftp://example.com/a.wav' } }), ['content.fileUrl']);
    assert.deepEqual(await refused('play', { content: { type: 'TTY', text: 'x' } }), ['content.type']);
    assert.deepEqual(await refused('play', { content: { type: 'URL', fileUrl: `${audio.url}/tone.wav` }, timeout: -5 }), ['timeout']);
    assert.deepEqual(await refused('say', { text: 'hi', language: 'klingon' }), ['language']);
    assert.deepEqual(await refused('say', { text: 'x'.repeat(10 * 1024 * 1024), language: 'en' }), ['text']);
    assert.deepEqual(await refused('say', { text: 'hi', language: 'en', speechRate: 3 }), ['speechRate']);
  });
});
