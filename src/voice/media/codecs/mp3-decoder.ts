import type { Audio } from '../audio.js';
import { OnDemandWorker } from '../worker/on-demand-worker.js';
import { AudioDecodeError, MAX_DECODED_SECONDS } from './audio-decode-error.js';
import type { Mp3WorkReply, Mp3WorkRequest } from './mp3-protocol.js';

/**
 * MP3 is decoded in a worker thread: a ten-minute file costs hundreds of milliseconds of CPU, which
 * would otherwise stop the HTTP thread. Started on the first MP3, it never holds the process open.
 */
const mp3Worker = new OnDemandWorker<Mp3WorkRequest, Mp3WorkReply>(new URL('./mp3-worker.js', import.meta.url), 'MP3 decoding worker');

export async function decodeMp3(bytes: Uint8Array): Promise<Audio> {
  // A copy moves to the worker, so the caller's bytes stay the caller's (Buffer's slice() would not copy).
  const copy = new Uint8Array(bytes);
  const reply = await mp3Worker.request({ bytes: copy, maxSeconds: MAX_DECODED_SECONDS }, [copy.buffer]);
  if ('error' in reply) throw new AudioDecodeError(reply.error);
  return { sampleRate: reply.sampleRate, samples: reply.samples };
}

/** Stops the decoding thread (a server's shutdown); the next MP3 starts it again. */
export const stopMp3Decoding = (): Promise<void> => mp3Worker.stop();
