import { MPEGDecoder, type MPEGDecodedAudio } from 'mpg123-decoder';
import { serveRequests } from '../worker/serve-requests.js';
import type { Mp3WorkReply, Mp3WorkRequest } from './mp3-protocol.js';

/** Entry of the MP3 decoding thread. */

// mpg123-decoder writes each error in a damaged stream to console.error. This thread does nothing
// else, and its failures are answered to the thread that asked; the log would only repeat them.
console.error = (): void => {};

/** Input is fed in pieces so that only one piece's float samples exist at a time, not the whole file's. */
const FEED_BYTES = 64 * 1024;

function appendMono(decoded: MPEGDecodedAudio, chunks: Int16Array[]): void {
  const channels = decoded.channelData;
  const samples = new Int16Array(decoded.samplesDecoded);
  for (let i = 0; i < samples.length; i++) {
    let sum = 0;
    for (const channel of channels) sum += channel[i]!;
    samples[i] = Math.round(Math.max(-1, Math.min(1, sum / channels.length)) * 32767);
  }
  chunks.push(samples);
}

async function decode(bytes: Uint8Array, maxSeconds: number): Promise<Mp3WorkReply> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const chunks: Int16Array[] = [];
    let sampleRate = 0;
    let total = 0;
    for (let at = 0; at < bytes.length; at += FEED_BYTES) {
      let decoded: MPEGDecodedAudio;
      try {
        decoded = decoder.decode(bytes.subarray(at, at + FEED_BYTES));
      } catch {
        // A stream that makes the decoder itself fail (a WebAssembly trap) is as undecodable as any other.
        return { error: 'undecodable MP3 file' };
      }
      if (decoded.samplesDecoded === 0) continue;
      if (sampleRate === 0) sampleRate = decoded.sampleRate;
      else if (decoded.sampleRate !== sampleRate) return { error: 'MP3 sample rate changes within the file' };
      total += decoded.samplesDecoded;
      if (total > maxSeconds * sampleRate) return { error: `audio is longer than ${maxSeconds} s` };
      appendMono(decoded, chunks);
    }
    if (total === 0) return { error: 'no MP3 audio frames' };
    const samples = new Int16Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      samples.set(chunk, offset);
      offset += chunk.length;
    }
    return { samples, sampleRate };
  } finally {
    try {
      decoder.free();
    } catch {
      // A decoder that trapped may not free cleanly; it is dropped either way.
    }
  }
}

serveRequests<Mp3WorkRequest, Mp3WorkReply>(async ({ bytes, maxSeconds }) => {
  const reply = await decode(bytes, maxSeconds);
  return 'samples' in reply ? { reply, transfer: [reply.samples.buffer as ArrayBuffer] } : { reply };
});
