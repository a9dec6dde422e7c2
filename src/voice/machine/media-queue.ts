import type { MediaAction } from '../../core/store/types.js';
import type { NewMediaAction } from './call-input.js';
import type { StepOutput } from './step-output.js';

export const MEDIA_END = 'media-end';
export const MEDIA_PREPARE = 'media-prepare';

/** Milliseconds of audio an action plays in all: every loop after the offset, cut at its timeout. */
export function playLength(action: MediaAction): number {
  const pass = Math.max(0, (action.audioMs ?? 0) - (action.offsetMs ?? 0));
  const all = pass * Math.max(1, action.loopCount);
  return action.timeoutMs === undefined ? all : Math.min(all, action.timeoutMs);
}

const finishedEvent = (action: MediaAction): string => (action.type === 'SAY' ? 'SAY_FINISHED' : 'PLAY_FINISHED');

/**
 * Queues a say or play. It is prepared (synthesized, fetched, decoded) by whichever node claims its
 * prepare timer, which is due at once; it plays when it reaches the head of the queue ready.
 */
export function enqueue(o: StepOutput, request: NewMediaAction, captureId?: number): MediaAction {
  const media = o.call.media;
  const action: MediaAction = { ...request, id: media.nextId, state: 'preparing', ...(captureId === undefined ? {} : { captureId }) };
  o.update({ media: { ...media, nextId: media.nextId + 1, queue: [...media.queue, action] } });
  o.timer(MEDIA_PREPARE, 0, { actionId: action.id });
  return action;
}

function replaceQueue(o: StepOutput, queue: MediaAction[]): void {
  o.update({ media: { ...o.call.media, queue } });
}

/** Starts the head of the queue if it is ready and nothing plays. Speech the far end hears is recorded. */
export function startNext(o: StepOutput, scale: number): void {
  const head = o.call.media.queue[0];
  if (!head || head.state !== 'ready') return;
  const playing: MediaAction = { ...head, state: 'playing', startedAt: o.now };
  replaceQueue(o, [playing, ...o.call.media.queue.slice(1)]);
  const length = playLength(playing);
  o.timer(MEDIA_END, length * scale, { actionId: playing.id });
  const source = playing.source;
  const data: Record<string, unknown> = { actionId: playing.id, action: playing.type, lengthMs: length, loopCount: playing.loopCount };
  if (playing.audioRef !== undefined) data.audioRef = playing.audioRef;
  if (playing.offsetMs !== undefined) data.offsetMs = playing.offsetMs;
  if (source.kind === 'speech') {
    Object.assign(data, { text: source.text, language: source.language, speechRate: source.speechRate });
    if (source.voiceGender !== undefined) data.voiceGender = source.voiceGender;
    o.heard.push({ text: source.text, actionId: playing.id, language: source.language });
  } else if (source.kind === 'file') data.fileId = source.fileId;
  else data.url = source.url;
  o.note(playing.type, data);
}

/** The audio of an action is known: it may start. */
export function markReady(o: StepOutput, actionId: number, audioMs: number, audioRef: string, scale: number): boolean {
  const queue = o.call.media.queue;
  const index = queue.findIndex((a) => a.id === actionId && a.state === 'preparing');
  if (index < 0) return false;
  const next = [...queue];
  next[index] = { ...queue[index]!, state: 'ready', audioMs, audioRef };
  replaceQueue(o, next);
  startNext(o, scale);
  return true;
}

/** The head action played to its end. Returns it, or undefined when that action is not playing. */
export function finishPlaying(o: StepOutput, actionId: number, scale: number): MediaAction | undefined {
  const head = o.call.media.queue[0];
  if (!head || head.id !== actionId || head.state !== 'playing') return undefined;
  replaceQueue(o, o.call.media.queue.slice(1));
  if (head.captureId === undefined) o.emit(finishedEvent(head), finishedProperties(head, playLength(head), true));
  startNext(o, scale);
  return head;
}

/**
 * Stops the playing head (a key press, stop-play): how long it played, in the audio's own time.
 * Returns the stopped action and that length, or undefined when nothing plays.
 */
export function stopPlaying(o: StepOutput, scale: number, capturedDtmf?: string): { action: MediaAction; playedMs: number } | undefined {
  const head = o.call.media.queue[0];
  if (!head || head.state !== 'playing') return undefined;
  const elapsed = scale > 0 ? (o.now - (head.startedAt ?? o.now)) / scale : playLength(head);
  const playedMs = Math.min(playLength(head), Math.max(0, Math.round(elapsed)));
  replaceQueue(o, o.call.media.queue.slice(1));
  o.cancel(MEDIA_END);
  o.note('STOPPED', { actionId: head.id, playedMs, ...(capturedDtmf === undefined ? {} : { dtmf: capturedDtmf }) });
  if (head.captureId === undefined) o.emit(finishedEvent(head), finishedProperties(head, playedMs, false, capturedDtmf));
  return { action: head, playedMs };
}

/** Drops what waits behind the head (stop-play): each is reported as not played. */
export function dropWaiting(o: StepOutput): void {
  for (const action of o.call.media.queue) {
    if (action.captureId === undefined) o.emit(finishedEvent(action), finishedProperties(action, 0, false));
  }
  replaceQueue(o, []);
}

/**
 * An action's audio could not be prepared: an ERROR event, and the call goes on without it. The
 * ERROR names the action the application asked for: a capture's prompt failing fails the capture.
 */
export function failPreparing(o: StepOutput, actionId: number, reason: string, scale: number): MediaAction | undefined {
  const action = o.call.media.queue.find((a) => a.id === actionId && a.state === 'preparing');
  if (!action) return undefined;
  replaceQueue(o, o.call.media.queue.filter((a) => a !== action));
  o.note('MEDIA_FAILED', { actionId, reason });
  const actionType = action.captureId === undefined ? action.type : 'CAPTURE_DTMF';
  o.emit('ERROR', { actionType, errorCode: 'MEDIA_ERROR', errorDetails: reason });
  startNext(o, scale);
  return action;
}

function finishedProperties(action: MediaAction, playedMs: number, completely: boolean, capturedDtmf?: string): Record<string, unknown> {
  const properties: Record<string, unknown> = { duration: playedMs, playedCompletely: completely };
  if (capturedDtmf !== undefined) properties.capturedDtmf = capturedDtmf;
  if (action.customData !== undefined) properties.customData = action.customData;
  return properties;
}
