/** Voice calls: calls configurations, calls with their media state, durable call timers, timelines and audio files. */
import type { OutboxItemInput } from './outbox.js';
import type { PhoneMessage } from './phones.js';

export type CallState = 'CALLING' | 'RINGING' | 'PRE_ESTABLISHED' | 'ESTABLISHED' | 'FINISHED' | 'FAILED' | 'CANCELLED' | 'NO_ANSWER' | 'BUSY';
export type CallDirection = 'INBOUND' | 'OUTBOUND';
export type HangupSource = 'ENDPOINT' | 'API' | 'PLATFORM';
export type CallEndpointType = 'PHONE' | 'SIP' | 'WEBRTC' | 'VIBER' | 'WHATSAPP' | 'WEBSOCKET';

/** A call's far end as the API gives it: `type` and the fields of that type, kept as given. */
export interface CallEndpoint {
  type: CallEndpointType;
  [field: string]: unknown;
}

export interface CallsConfiguration {
  accountId: string;
  id: string;
  name?: string;
  createdAt: number;
}

export interface CallPlatform {
  entityId?: string;
  applicationId?: string;
}

export interface MachineDetectionRequest {
  enabled: boolean;
  messageDetectionTimeout?: number;
  detectionTime?: number;
}

export interface MachineDetectionResult {
  detectionResult: 'HUMAN' | 'MACHINE';
  confidenceRating: Record<string, number>;
}

/** What a media action plays. Speech is synthesized; audio (files, URLs) is decoded and measured. */
export type MediaSource =
  | { kind: 'speech'; text: string; language: string; speechRate: number; voiceGender?: 'FEMALE' | 'MALE'; voiceName?: string }
  | { kind: 'file'; fileId: string }
  | { kind: 'url'; url: string };

/**
 * One say/play (or the prompt of a DTMF capture) in a call's media queue. It is `preparing` until its
 * audio is known (synthesized, fetched, decoded), then `ready`, then `playing` from `startedAt`.
 */
export interface MediaAction {
  id: number;
  type: 'SAY' | 'PLAY';
  source: MediaSource;
  loopCount: number;
  /** PLAY: milliseconds to play (of all loops), and where in the audio to start. */
  timeoutMs?: number;
  offsetMs?: number;
  /** stopOn DTMF: `terminator` digits that stop it, or any digit when it is undefined. */
  stopOn?: { terminator?: string };
  customData?: Record<string, string>;
  state: 'preparing' | 'ready' | 'playing';
  /** Milliseconds of one pass of the audio, once prepared. */
  audioMs?: number;
  /** The prepared audio's key: a speech cache key or a stored audio id, so the call's recording can be rendered. */
  audioRef?: string;
  startedAt?: number;
  /** Belongs to this DTMF capture (its prompt): a digit stops it without a stopOn. */
  captureId?: number;
}

export interface DtmfCapture {
  id: number;
  maxLength: number;
  timeoutMs: number;
  digitTimeoutMs: number;
  terminator?: string;
  customData?: Record<string, string>;
  digits: string;
  startedAt: number;
  lastDigitAt?: number;
  /** How its prompt played, once it ended (DTMF_CAPTURED's playedContentProperties). */
  promptResult?: { duration: number; playedCompletely: boolean };
}

/** The media side of a live call: what plays and waits to play, and a DTMF capture in progress. */
export interface CallMedia {
  nextId: number;
  queue: MediaAction[];
  capture?: DtmfCapture;
}

/**
 * What a call made on the platform's own behalf does once answered (a voice PIN): say its text
 * `plays` times, say it again whenever the far end presses `repeatDtmf`, and hang up when it has
 * been quiet a while after the last.
 */
export interface CallScript {
  speech: Extract<MediaSource, { kind: 'speech' }>;
  plays: number;
  repeatDtmf?: string;
  /** Keys pressed so far that may still end in repeatDtmf. */
  keys?: string;
  /** Whoever made the call wants a delivery report when it ends (a voice PIN with trackDelivery). */
  trackDelivery?: boolean;
}

export interface CallRecord {
  pk: number;
  accountId: string;
  callId: string;
  configurationId: string;
  direction: CallDirection;
  endpoint: CallEndpoint;
  from: string;
  to: string;
  fromDisplayName?: string;
  state: CallState;
  startTime: number;
  /** When it started ringing (RINGING), for `ringDuration`. */
  ringTime?: number;
  answerTime?: number;
  endTime?: number;
  connectTimeoutMs: number;
  maxDurationMs: number;
  customData?: Record<string, string>;
  externalId?: string;
  parentCallId?: string;
  platform?: CallPlatform;
  machineDetection?: MachineDetectionRequest;
  detection?: MachineDetectionResult;
  /** The `recording` request, kept as given. */
  recording?: Record<string, unknown>;
  /** Why it ended: an id of the Calls error-code table (10000 NORMAL_HANGUP …). */
  errorCode?: number;
  hangupSource?: HangupSource;
  /** The telephony connector carrying the call (`sandbox`), and the node whose connector it is. */
  network: string;
  nodeId: string;
  media: CallMedia;
  script?: CallScript;
  updatedAt: number;
}

export type NewCall = Omit<CallRecord, 'pk'>;

/** A timer of a call, kept in the store so that any node can carry the call on at its time. */
export interface NewCallTimer {
  kind: string;
  dueAt: number;
  data?: Record<string, unknown>;
}

export interface CallTimer extends NewCallTimer {
  id: number;
  accountId: string;
  callPk: number;
  callId: string;
}

/** One line of a call's media timeline: what was said, played or pressed, and state changes. */
export interface TimelineEntry {
  at: number;
  type: string;
  data: Record<string, unknown>;
}

/**
 * What one step of a call changes, stored atomically with the call: the call itself, the webhook
 * items of its events (in order), its timers, its timeline, and what the far end's phone heard.
 */
export interface CallTransition {
  call: CallRecord;
  events?: OutboxItemInput[];
  /** Timers to add. */
  addTimers?: NewCallTimer[];
  /** Timers to remove: by id (the one that fired), by kind, or all of the call's. */
  removeTimerIds?: number[];
  removeTimerKinds?: string[];
  removeAllTimers?: boolean;
  timeline?: TimelineEntry[];
  phone?: PhoneMessage[];
}

/**
 * Decides a call's next step from the call as stored, inside the store's transaction (which holds
 * the call's row): it must be synchronous and have no side effects. It returns what to store, or
 * undefined for nothing; what it throws aborts the transaction and reaches the caller.
 */
export type CallStep = (call: CallRecord) => CallTransition | undefined;

export interface CallFilter {
  accountId: string;
  /** Live calls (not in a final state) or finished ones (the history). */
  live: boolean;
  type?: CallEndpointType;
  configurationId?: string;
  applicationId?: string;
  from?: string;
  to?: string;
  direction?: CallDirection;
  state?: CallState;
  startTimeAfter?: number;
  /** Calls that started at or after this instant only (retention of the history). */
  since: number;
  page: number;
  size: number;
}

/** An audio file: uploaded through the API, or fetched from a URL a play asked for. */
export interface StoredAudio {
  accountId: string;
  id: string;
  origin: 'upload' | 'url';
  name: string;
  format: 'WAV' | 'MP3';
  size: number;
  durationMs: number;
  createdAt: number;
  expiresAt?: number;
}

export interface CallsConfigurationStore {
  create(configuration: CallsConfiguration): Promise<'created' | 'duplicate'>;
  get(accountId: string, id: string): Promise<CallsConfiguration | undefined>;
  list(accountId: string, page: number, size: number): Promise<{ results: CallsConfiguration[]; total: number }>;
  /** Returns the configuration as updated, or undefined when it does not exist. */
  update(accountId: string, id: string, name: string | undefined): Promise<CallsConfiguration | undefined>;
  /** Returns the configuration deleted, or undefined when it did not exist. */
  delete(accountId: string, id: string): Promise<CallsConfiguration | undefined>;
}

export interface CallStore {
  /** Stores a new call with the outputs of its first step (events, timers, timeline); returns its pk. */
  create(call: NewCall, first: Omit<CallTransition, 'call'>): Promise<CallRecord>;
  get(accountId: string, callId: string): Promise<CallRecord | undefined>;
  list(filter: CallFilter): Promise<{ results: CallRecord[]; total: number }>;
  /**
   * Runs `step` on the call inside a transaction holding its row, and stores what it returns.
   * Returns the call as stored afterwards, or undefined when the account has no such call.
   */
  update(accountId: string, callId: string, step: CallStep): Promise<CallRecord | undefined>;
  /**
   * Claims due timers (dueAt <= now, not claimed by a live lease) until `leaseUntil`, in due order;
   * concurrent claimers never get the same timer, and all the due timers of a call go to one claimer
   * (which can then run them in order). A timer is removed by the step that handles it.
   */
  claimDueTimers(now: number, limit: number, leaseUntil: number): Promise<CallTimer[]>;
  /** The earliest dueAt of the timers no claim holds at `now`, so an idle engine knows when to look again. */
  nextTimerDue(now: number): Promise<number | undefined>;
  /** Live calls (not final) carried by one of these nodes. */
  /** Live calls carried by these nodes, unless the node has beaten since `silentBefore` (it came back). */
  listLiveOnNodes(nodeIds: string[], limit: number, silentBefore: number): Promise<CallRecord[]>;
  timeline(accountId: string, callId: string): Promise<TimelineEntry[]>;
  /** Retention: deletes calls that ended before `before`, with their timelines. Returns calls removed. */
  purgeBefore(before: number): Promise<number>;
}

export interface AudioStore {
  /** Stores audio bytes; an id already stored for the account is kept as it is (URL audio is keyed by its content). */
  put(audio: StoredAudio, bytes: Uint8Array): Promise<void>;
  get(accountId: string, id: string): Promise<{ audio: StoredAudio; bytes: Uint8Array } | undefined>;
  describe(accountId: string, id: string): Promise<StoredAudio | undefined>;
  list(accountId: string, origin: StoredAudio['origin'], page: number, size: number): Promise<{ results: StoredAudio[]; total: number }>;
  delete(accountId: string, id: string): Promise<StoredAudio | undefined>;
  /** Removes audio whose `expiresAt` passed. */
  purgeExpired(now: number): Promise<number>;
}

/** Nodes sharing the store announce themselves, so that the others can tell when one has died. */
export interface NodeStore {
  beat(nodeId: string, now: number): Promise<void>;
  /** Nodes whose last beat is older than `before`. */
  listSilentSince(before: number): Promise<string[]>;
  /** Forgets these nodes, except those that have beaten since `silentBefore` (when given). */
  forget(nodeIds: string[], silentBefore?: number): Promise<void>;
  /** The node stops: it counts as silent from now on, so the others take its work over at their next beat. */
  leave(nodeId: string): Promise<void>;
}
