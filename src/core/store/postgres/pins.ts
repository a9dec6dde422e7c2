import type { PinChannelName, PinRecord, PinStore, VerifyOutcome } from '../types.js';
import { PgPinInserts } from './pin-inserts.js';
import { PgPinVerifications } from './pin-verifications.js';
import { opt, type Row, type Sql } from './shared.js';

function toPin(r: Row): PinRecord {
  const pin: PinRecord = {
    accountId: r.account_id,
    pinId: r.pin_id,
    applicationId: r.application_id,
    messageId: r.message_id,
    msisdn: r.msisdn,
    pinType: r.pin_type,
    pinLength: r.pin_length,
    pinHash: r.pin_hash,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    maxAttempts: r.max_attempts,
    wrongAttempts: r.wrong_attempts,
    allowMultipleVerifications: r.allow_multiple,
    sentAt: r.sent_at,
  };
  if (r.verified_at !== null) pin.verifiedAt = r.verified_at;
  if (r.external_message_id !== null) pin.externalMessageId = r.external_message_id;
  if (r.channel !== 'SMS') pin.channel = r.channel;
  return pin;
}

export class PgPinStore implements PinStore {
  private readonly verifications: PgPinVerifications;
  private readonly inserts: PgPinInserts;

  constructor(private readonly sql: Sql) {
    this.verifications = new PgPinVerifications(sql, toPin);
    this.inserts = new PgPinInserts(sql);
  }

  async create(pin: PinRecord, options: { durableWithNextCommit?: boolean } = {}): Promise<void> {
    await this.inserts.insert(pin, options.durableWithNextCommit === true);
  }

  async get(accountId: string, pinId: string): Promise<PinRecord | undefined> {
    const rows = await this.sql`SELECT * FROM pins WHERE pin_id = ${pinId} AND account_id = ${accountId}`;
    return rows.length > 0 ? toPin(rows[0]!) : undefined;
  }

  async markSent(accountId: string, pinId: string, sentAt: number, externalMessageId: string | undefined, channel?: PinChannelName): Promise<void> {
    await this.sql`
      UPDATE pins SET sent_at = ${sentAt}, external_message_id = ${opt(externalMessageId)}, channel = coalesce(${opt(channel)}::text, channel)
      WHERE pin_id = ${pinId} AND account_id = ${accountId}`;
  }

  async verify(accountId: string, pinId: string, correct: boolean, now: number): Promise<VerifyOutcome | undefined> {
    return this.verifications.verify(accountId, pinId, correct, now);
  }

  async listForMsisdn(accountId: string, applicationId: string, msisdn: string, filter: { verified?: boolean }, limit: number): Promise<PinRecord[]> {
    const rows = await this.sql`
      SELECT * FROM pins WHERE account_id = ${accountId} AND application_id = ${applicationId} AND msisdn = ${msisdn}
      ORDER BY created_at DESC, pin_id LIMIT ${limit}`;
    const pins = rows.map(toPin);
    return filter.verified === undefined ? pins : pins.filter((pin) => (pin.verifiedAt !== undefined) === filter.verified);
  }

  async listForApplication(accountId: string, applicationId: string, limit: number): Promise<PinRecord[]> {
    const rows = await this.sql`
      SELECT * FROM pins WHERE account_id = ${accountId} AND application_id = ${applicationId}
      ORDER BY created_at DESC, pin_id LIMIT ${limit}`;
    return rows.map(toPin);
  }

  async purgeBefore(before: number): Promise<number> {
    const rows = await this.sql`DELETE FROM pins WHERE created_at < ${before} AND expires_at < ${before} RETURNING pin_id`;
    return rows.length;
  }
}
