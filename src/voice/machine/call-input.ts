import type { CallTimer, DtmfCapture, MediaAction } from '../../core/store/types.js';
import type { NetworkEvent } from '../../network/telephony/telephony.js';
import type { HangupErrorName } from './call-errors.js';

/** A say/play as the API asks for it; the machine gives it an id and a place in the queue. */
export type NewMediaAction = Omit<MediaAction, 'id' | 'state' | 'audioMs' | 'audioRef' | 'startedAt' | 'captureId'>;

export type NewDtmfCapture = Omit<DtmfCapture, 'id' | 'digits' | 'startedAt' | 'lastDigitAt' | 'promptResult'>;

type CustomData = { customData?: Record<string, string> };

/** Everything that moves a call: the application (API), the far end (network), time, media preparation, the platform. */
export type CallInput =
  | ({ kind: 'answer'; recording?: Record<string, unknown> } & CustomData)
  | ({ kind: 'pre-answer'; ringing: boolean } & CustomData)
  | { kind: 'send-ringing' }
  | { kind: 'hangup'; errorCode?: HangupErrorName }
  | ({ kind: 'say' | 'play'; action: NewMediaAction } & CustomData)
  | ({ kind: 'stop-play' } & CustomData)
  | ({ kind: 'capture-dtmf'; capture: NewDtmfCapture; prompt?: NewMediaAction } & CustomData)
  | ({ kind: 'send-dtmf'; dtmf: string } & CustomData)
  | { kind: 'network'; event: NetworkEvent; timerId?: number }
  | { kind: 'timer'; timer: CallTimer }
  | { kind: 'media-ready'; actionId: number; audioMs: number; audioRef: string; timerId?: number }
  | { kind: 'media-failed'; actionId: number; reason: string; timerId?: number }
  | { kind: 'platform-lost' };

/** Inputs the application sends through the API; the others come from the network, timers and the platform. */
export const API_INPUTS: ReadonlySet<CallInput['kind']> = new Set([
  'answer',
  'pre-answer',
  'send-ringing',
  'hangup',
  'say',
  'play',
  'stop-play',
  'capture-dtmf',
  'send-dtmf',
]);
