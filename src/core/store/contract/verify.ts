/** Two-factor verification: applications, their message templates, PINs and their verification, rate windows. */

export type PinType = 'NUMERIC' | 'ALPHA' | 'HEX' | 'ALPHANUMERIC';

/** An application's configuration as the API gives it, every field filled with its effective value. */
export interface TwoFactorConfiguration {
  pinAttempts: number;
  allowMultiplePinVerifications: boolean;
  /** `{timeLength}{timeUnit}`, e.g. `15m`. */
  pinTimeToLive: string;
  /** `{attempts}/{timeLength}{timeUnit}`, e.g. `1/3s`. */
  verifyPinLimit: string;
  sendPinPerApplicationLimit: string;
  sendPinPerPhoneNumberLimit: string;
}

/** Switchboard's own protections for an application, off unless set. */
export interface TwoFactorProtection {
  /** Country calling codes PINs may be sent to (e.g. `41`); every other destination is refused. */
  allowedCountryCodes?: string[];
  /** Country calling codes PINs are never sent to. */
  deniedCountryCodes?: string[];
  /** A cap on PINs sent to numbers sharing a prefix in a window: `{attempts}/{timeLength}{timeUnit}`. */
  prefixSendLimit?: string;
  /** How many leading digits make the prefix of prefixSendLimit. */
  prefixLength?: number;
}

export interface TwoFactorApplication {
  accountId: string;
  applicationId: string;
  name: string;
  enabled: boolean;
  configuration: TwoFactorConfiguration;
  protection?: TwoFactorProtection;
  createdAt: number;
  updatedAt: number;
}

export interface TwoFactorTemplate {
  accountId: string;
  applicationId: string;
  messageId: string;
  messageText: string;
  pinType: PinType;
  pinLength: number;
  senderId?: string;
  /** A 2FA language code (`en`, `pt_br`, …). */
  language: string;
  voiceName?: string;
  repeatDTMF?: string;
  speechRate: number;
  regional?: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

/** A PIN sent: only a keyed hash of it is kept. */
export interface PinRecord {
  accountId: string;
  pinId: string;
  applicationId: string;
  messageId: string;
  msisdn: string;
  /** The PIN's alphabet and length, as its template had them when it was made. */
  pinType: PinType;
  pinLength: number;
  /** Keyed hash (HMAC) of the PIN, hex. */
  pinHash: string;
  createdAt: number;
  expiresAt: number;
  maxAttempts: number;
  /** Wrong guesses so far; never above maxAttempts. */
  wrongAttempts: number;
  allowMultipleVerifications: boolean;
  verifiedAt?: number;
  /** When it was last sent (a resend sends the same PIN again). */
  sentAt: number;
  /** The SMS message or call that carried it last, for delivery reports. */
  externalMessageId?: string;
  /** How it was sent last (SMS when absent). */
  channel?: PinChannelName;
}

export type PinChannelName = 'SMS' | 'VOICE';

/** A PIN's attempts and verification as a verification attempt left them. */
export type PinCounts = Pick<PinRecord, 'wrongAttempts' | 'maxAttempts' | 'verifiedAt'>;

/** What a verification attempt did to a PIN, decided atomically in the store. */
export interface VerifyOutcome {
  result: 'verified' | 'wrong' | 'expired' | 'exhausted' | 'already-verified';
  pin: PinCounts;
}

export interface TwoFactorApplicationStore {
  create(application: TwoFactorApplication): Promise<void>;
  get(accountId: string, applicationId: string): Promise<TwoFactorApplication | undefined>;
  list(accountId: string): Promise<TwoFactorApplication[]>;
  /** Returns false when the account has no such application. */
  update(application: TwoFactorApplication): Promise<boolean>;
}

export interface TwoFactorTemplateStore {
  create(template: TwoFactorTemplate): Promise<void>;
  get(accountId: string, applicationId: string, messageId: string): Promise<TwoFactorTemplate | undefined>;
  list(accountId: string, applicationId: string): Promise<TwoFactorTemplate[]>;
  update(template: TwoFactorTemplate): Promise<boolean>;
}

export interface PinStore {
  /**
   * With `durableWithNextCommit`, the write need not wait for the disk: the caller makes a durable
   * commit next (the PIN's message), which, coming later in the same log, makes this one durable
   * too before anyone is answered. A driver whose commits cost nothing extra ignores it.
   */
  create(pin: PinRecord, options?: { durableWithNextCommit?: boolean }): Promise<void>;
  get(accountId: string, pinId: string): Promise<PinRecord | undefined>;
  /** A resend: the same PIN sent again now, through this message or call. */
  markSent(accountId: string, pinId: string, sentAt: number, externalMessageId: string | undefined, channel?: PinChannelName): Promise<void>;
  /**
   * Applies one verification atomically: a right PIN is verified unless it expired, its attempts
   * are used up or (when multiple verifications are not allowed) it was verified already; a wrong
   * one counts an attempt only while attempts remain, so concurrent wrong guesses never count more
   * than maxAttempts. `correct` is decided by the caller (a constant-time comparison of hashes).
   * The change is on disk before it resolves. (Not waiting for the disk was tried on SQLite: the
   * WAL then went unsynced between checkpoints, and a steady 1 000 verifications/s had a p99 of
   * 130-160 ms instead of 25-40, at no higher rate at full speed.)
   */
  verify(accountId: string, pinId: string, correct: boolean, now: number): Promise<VerifyOutcome | undefined>;
  /** Newest first. */
  listForMsisdn(accountId: string, applicationId: string, msisdn: string, filter: { verified?: boolean }, limit: number): Promise<PinRecord[]>;
  /** An application's PINs, newest first. */
  listForApplication(accountId: string, applicationId: string, limit: number): Promise<PinRecord[]>;
  /** Deletes PINs made and expired before `before` (a PIN is kept while it can still be verified). */
  purgeBefore(before: number): Promise<number>;
}

/**
 * Counters of fixed time windows (rate limits): `take` counts one use of `key` in the window that
 * holds `now` and says whether it stayed within `limit`; uses beyond the limit are not counted, so
 * a caller refused does not push the window further. A window of length `windowMs` starts at a
 * multiple of it (Unix milliseconds), so a caller knows when the one that refused ends.
 */
export interface RateWindowTake {
  key: string;
  windowMs: number;
  limit: number;
}

export interface RateWindowStore {
  take(key: string, windowMs: number, limit: number, now: number): Promise<boolean>;
  /**
   * Takes one use of each window, or of none: returns -1 when every take was counted, else the
   * index of the first that is over its limit, and then counts none of them.
   */
  takeAll(takes: RateWindowTake[], now: number): Promise<number>;
  /** Deletes windows that ended before `before`. */
  purgeBefore(before: number): Promise<number>;
}

/** A secret of the deployment kept in the store (the PIN hashing key), created once and shared by every node. */
export interface SecretStore {
  getOrCreate(name: string, create: () => string): Promise<string>;
}
