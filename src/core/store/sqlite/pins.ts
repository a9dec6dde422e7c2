import { classifyRefusal, pinCountsOf } from '../pin-outcome.js';
import type { PinChannelName, PinRecord, PinStore, PinType, VerifyOutcome } from '../types.js';
import { TurnWrites } from './turn-writes.js';
import { flag, nullToUndefined, orNull, preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';
import { omitUndefined } from '../../omit-undefined.js';

interface PinRow {
  pin_id: string;
  account_id: string;
  application_id: string;
  message_id: string;
  msisdn: string;
  pin_type: PinType;
  pin_length: number;
  pin_hash: string;
  created_at: number;
  expires_at: number;
  max_attempts: number;
  wrong_attempts: number;
  allow_multiple: number;
  verified_at: number | null;
  sent_at: number;
  external_message_id: string | null;
  channel: 'SMS' | 'VOICE';
}

interface Guess {
  pinId: string;
  accountId: string;
  now: number;
  correct: boolean;
}

type CountsRow = Pick<PinRow, 'wrong_attempts' | 'max_attempts' | 'verified_at'>;

const toPin = (row: PinRow): PinRecord =>
  omitUndefined({
    accountId: row.account_id,
    pinId: row.pin_id,
    applicationId: row.application_id,
    messageId: row.message_id,
    msisdn: row.msisdn,
    pinType: row.pin_type,
    pinLength: row.pin_length,
    pinHash: row.pin_hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    maxAttempts: row.max_attempts,
    wrongAttempts: row.wrong_attempts,
    allowMultipleVerifications: row.allow_multiple === 1,
    verifiedAt: nullToUndefined(row.verified_at),
    sentAt: row.sent_at,
    externalMessageId: nullToUndefined(row.external_message_id),
    channel: row.channel === 'SMS' ? undefined : row.channel,
  });

/** A PIN still open to a verification: not expired, attempts left, not verified already unless it may be again. */
const OPEN = 'expires_at > @now AND wrong_attempts < max_attempts AND (allow_multiple = 1 OR verified_at IS NULL)';

export class SqlitePinStore implements PinStore {
  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare(
      `INSERT INTO pins (pin_id, account_id, application_id, message_id, msisdn, pin_type, pin_length, pin_hash, created_at, expires_at,
         max_attempts, wrong_attempts, allow_multiple, verified_at, sent_at, external_message_id, channel)
       VALUES (@pinId, @accountId, @applicationId, @messageId, @msisdn, @pinType, @pinLength, @pinHash, @createdAt, @expiresAt,
         @maxAttempts, @wrongAttempts, @allowMultiple, @verifiedAt, @sentAt, @externalMessageId, @channel)`,
    ),
    get: this.db.prepare<[string, string], PinRow>('SELECT * FROM pins WHERE pin_id = ? AND account_id = ?'),
    markSent: this.db.prepare<[number, string | null, string | null, string, string]>(
      'UPDATE pins SET sent_at = ?, external_message_id = ?, channel = coalesce(?, channel) WHERE pin_id = ? AND account_id = ?',
    ),
    verifyRight: this.db.prepare<{ pinId: string; accountId: string; now: number }, CountsRow>(
      `UPDATE pins SET verified_at = coalesce(verified_at, @now) WHERE pin_id = @pinId AND account_id = @accountId AND ${OPEN}
       RETURNING wrong_attempts, max_attempts, verified_at`,
    ),
    verifyWrong: this.db.prepare<{ pinId: string; accountId: string; now: number }, CountsRow>(
      `UPDATE pins SET wrong_attempts = wrong_attempts + 1 WHERE pin_id = @pinId AND account_id = @accountId AND ${OPEN}
       RETURNING wrong_attempts, max_attempts, verified_at`,
    ),
    forMsisdn: this.db.prepare<[string, string, string, number], PinRow>(
      'SELECT * FROM pins WHERE account_id = ? AND application_id = ? AND msisdn = ? ORDER BY created_at DESC, pin_id LIMIT ?',
    ),
    forApplication: this.db.prepare<[string, string, number], PinRow>(
      'SELECT * FROM pins WHERE account_id = ? AND application_id = ? ORDER BY created_at DESC, pin_id LIMIT ?',
    ),
    purge: this.db.prepare<{ before: number }>('DELETE FROM pins WHERE created_at < @before AND expires_at < @before'),
  }));

  /** PINs sent in the same turn are inserted in one transaction, and guesses verified in one. */
  private readonly inserts: TurnWrites<object>;
  private readonly verifications: TurnWrites<Guess, VerifyOutcome | undefined>;

  constructor(private readonly db: Db) {
    this.inserts = new TurnWrites<object>(db, (params) => void this.sql().insert.run(params));
    this.verifications = new TurnWrites(db, (guess) => this.verifyNow(guess));
  }

  /** With `durableWithNextCommit` the insert does not wait for a sync of the WAL: the next commit's sync covers it. */
  async create(pin: PinRecord, options: { durableWithNextCommit?: boolean } = {}): Promise<void> {
    const params = {
      pinId: pin.pinId,
      accountId: pin.accountId,
      applicationId: pin.applicationId,
      messageId: pin.messageId,
      msisdn: pin.msisdn,
      pinType: pin.pinType,
      pinLength: pin.pinLength,
      pinHash: pin.pinHash,
      createdAt: pin.createdAt,
      expiresAt: pin.expiresAt,
      maxAttempts: pin.maxAttempts,
      wrongAttempts: pin.wrongAttempts,
      allowMultiple: flag(pin.allowMultipleVerifications),
      verifiedAt: orNull(pin.verifiedAt),
      sentAt: pin.sentAt,
      externalMessageId: orNull(pin.externalMessageId),
      channel: pin.channel ?? 'SMS',
    };
    await this.inserts.add(params, options.durableWithNextCommit !== true);
  }

  async get(accountId: string, pinId: string): Promise<PinRecord | undefined> {
    const row = this.sql().get.get(pinId, accountId);
    return row && toPin(row);
  }

  async markSent(accountId: string, pinId: string, sentAt: number, externalMessageId: string | undefined, channel?: PinChannelName): Promise<void> {
    await withoutBlockingOnLocks(this.db, () => this.sql().markSent.run(sentAt, orNull(externalMessageId), orNull(channel), pinId, accountId));
  }

  async verify(accountId: string, pinId: string, correct: boolean, now: number): Promise<VerifyOutcome | undefined> {
    return this.verifications.add({ pinId, accountId, now, correct }, true);
  }

  private verifyNow({ correct, ...params }: Guess): VerifyOutcome | undefined {
    const { verifyRight, verifyWrong, get } = this.sql();
    const changed = (correct ? verifyRight : verifyWrong).get(params);
    if (changed) return { result: correct ? 'verified' : 'wrong', pin: pinCountsOf(changed) };
    const row = get.get(params.pinId, params.accountId);
    if (!row) return undefined;
    const pin = toPin(row);
    return { result: classifyRefusal(pin, params.now), pin };
  }

  async listForMsisdn(accountId: string, applicationId: string, msisdn: string, filter: { verified?: boolean }, limit: number): Promise<PinRecord[]> {
    const pins = this.sql().forMsisdn.all(accountId, applicationId, msisdn, limit).map(toPin);
    return filter.verified === undefined ? pins : pins.filter((pin) => (pin.verifiedAt !== undefined) === filter.verified);
  }

  async listForApplication(accountId: string, applicationId: string, limit: number): Promise<PinRecord[]> {
    return this.sql().forApplication.all(accountId, applicationId, limit).map(toPin);
  }

  async purgeBefore(before: number): Promise<number> {
    return (await withoutBlockingOnLocks(this.db, () => this.sql().purge.run({ before }))).changes;
  }
}
