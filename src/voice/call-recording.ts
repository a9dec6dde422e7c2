import type { CallRecord, TimelineEntry } from '../core/store/types.js';
import type { CallMedia } from './call-media.js';
import { dtmfTone } from './media/dtmf.js';
import { renderTrack, type TrackSegment } from './media/render-track.js';
import { encodeWav } from './media/codecs/wav-encoder.js';
import type { SpeechRequest } from './media/speech/speech-request.js';

/** eSpeak's own rate: speech, the most of what a sandbox call hears, is not resampled. */
export const RECORDING_SAMPLE_RATE = 22_050;
/** A recording longer than this is cut: it is rendered in memory. */
export const MAX_RECORDING_MS = 10 * 60_000;
const TONE_MS = 150;
const TONE_GAP_MS = 50;

const MEDIA_TYPES = new Set(['SAY', 'PLAY']);

/**
 * What the far end of a call heard, as WAV: speech and played audio, and key presses as their tones,
 * at their times from the answer. The sandbox may play media faster than real time (its latency
 * setting): a segment then never starts before the previous one ended, so speech is heard whole
 * and in order, and the silences between are as long as they were.
 */
export async function renderCallRecording(call: CallRecord, timeline: TimelineEntry[], media: CallMedia): Promise<Uint8Array> {
  const startReal = call.answerTime ?? timeline.find((e) => MEDIA_TYPES.has(e.type))?.at ?? call.startTime;
  const stoppedAt = new Map<number, number>();
  for (const entry of timeline) if (entry.type === 'STOPPED') stoppedAt.set(Number(entry.data.actionId), Number(entry.data.playedMs));

  const segments: TrackSegment[] = [];
  let clock = 0;
  let lastReal = startReal;
  let cursor = 0;
  for (const entry of timeline) {
    if (entry.at < startReal) continue;
    clock = Math.max(clock + (entry.at - lastReal), cursor);
    lastReal = entry.at;
    if (MEDIA_TYPES.has(entry.type)) {
      const heard = stoppedAt.get(Number(entry.data.actionId)) ?? Number(entry.data.lengthMs);
      const placed = await placeMedia(call, entry, media, clock, heard);
      segments.push(...placed);
      cursor = clock + heard;
    } else if (entry.type === 'DTMF_RECEIVED' || entry.type === 'DTMF_SENT') {
      const digits = String(entry.data.digit ?? entry.data.digits ?? '').replace(/[^0-9*#A-D]/g, '');
      let at = clock;
      for (const digit of digits) {
        segments.push({ atMs: at, audio: dtmfTone(digit, TONE_MS, RECORDING_SAMPLE_RATE) });
        at += TONE_MS + TONE_GAP_MS;
      }
      cursor = at;
    }
  }
  const endReal = call.endTime ?? lastReal;
  const totalMs = Math.min(MAX_RECORDING_MS, Math.max(cursor, clock + (endReal - lastReal)));
  return encodeWav(renderTrack(segments, totalMs, RECORDING_SAMPLE_RATE));
}

/** One pass of an action's audio per loop, from its offset, up to what was heard of it in all. */
async function placeMedia(call: CallRecord, entry: TimelineEntry, media: CallMedia, atMs: number, heardMs: number): Promise<TrackSegment[]> {
  const ref = typeof entry.data.audioRef === 'string' ? entry.data.audioRef : undefined;
  if (ref === undefined || heardMs <= 0) return [];
  const speech: SpeechRequest | undefined =
    typeof entry.data.text === 'string'
      ? {
          text: entry.data.text,
          language: String(entry.data.language),
          speechRate: Number(entry.data.speechRate ?? 1),
          ...(entry.data.voiceGender === 'FEMALE' || entry.data.voiceGender === 'MALE' ? { voiceGender: entry.data.voiceGender } : {}),
        }
      : undefined;
  const audio = await media.audioOf(call.accountId, ref, speech);
  if (!audio) return [];
  const offsetMs = Number(entry.data.offsetMs ?? 0);
  const passMs = Math.max(0, (audio.samples.length * 1000) / audio.sampleRate - offsetMs);
  const out: TrackSegment[] = [];
  for (let at = 0; at < heardMs && passMs > 0; at += passMs) {
    out.push({ atMs: atMs + at, audio, offsetMs, lengthMs: Math.min(passMs, heardMs - at) });
  }
  return out;
}
