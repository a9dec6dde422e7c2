import type { PinRecord } from '../types.js';
import { opt, type Sql } from './shared.js';
import { TurnRounds } from './turn-rounds.js';

interface NewPin {
  pin: PinRecord;
  durableWithNextCommit: boolean;
}

/**
 * The PINs sent in one turn of the event loop inserted by one statement (a TurnRounds round: each
 * pinId is new, so one round holds them all), not one round trip and one commit each. The commit
 * waits for the WAL flush unless every PIN in it is made durable by its message's commit next. A
 * round that fails is inserted again one by one, so a PIN that cannot be stored fails alone.
 */
export class PgPinInserts {
  private readonly rounds: TurnRounds<NewPin, void>;

  constructor(private readonly sql: Sql) {
    this.rounds = new TurnRounds<NewPin, void>(
      (item) => item.pin.pinId,
      async (items) => {
        await this.insertAll(items);
        return items.map(() => undefined);
      },
    );
  }

  insert(pin: PinRecord, durableWithNextCommit: boolean): Promise<void> {
    return this.rounds.add({ pin, durableWithNextCommit });
  }

  private async insertAll(batch: NewPin[]): Promise<void> {
    const pins = batch.map((queued) => queued.pin);
    const synchronous = batch.some((queued) => !queued.durableWithNextCommit) ? 'on' : 'off';
    // synchronous_commit for this statement's transaction only (set_config … true is SET LOCAL);
    // allow_multiple goes as 1 or 0: postgres.js does not send boolean arrays.
    await this.sql`
      INSERT INTO pins (pin_id, account_id, application_id, message_id, msisdn, pin_type, pin_length, pin_hash, created_at,
                        expires_at, max_attempts, wrong_attempts, allow_multiple, verified_at, sent_at, external_message_id, channel)
      SELECT u.pin_id, u.account_id, u.application_id, u.message_id, u.msisdn, u.pin_type, u.pin_length, u.pin_hash, u.created_at,
             u.expires_at, u.max_attempts, u.wrong_attempts, u.allow_multiple = 1, u.verified_at, u.sent_at, u.external_message_id, u.channel
      FROM (SELECT set_config('synchronous_commit', ${synchronous}, true)) AS commit_mode,
           unnest(${pins.map((p) => p.pinId)}::text[], ${pins.map((p) => p.accountId)}::text[], ${pins.map((p) => p.applicationId)}::text[],
                  ${pins.map((p) => p.messageId)}::text[], ${pins.map((p) => p.msisdn)}::text[], ${pins.map((p) => p.pinType)}::text[],
                  ${pins.map((p) => p.pinLength)}::int4[], ${pins.map((p) => p.pinHash)}::text[], ${pins.map((p) => p.createdAt)}::int8[],
                  ${pins.map((p) => p.expiresAt)}::int8[], ${pins.map((p) => p.maxAttempts)}::int4[], ${pins.map((p) => p.wrongAttempts)}::int4[],
                  ${pins.map((p) => (p.allowMultipleVerifications ? 1 : 0))}::int4[], ${pins.map((p) => opt(p.verifiedAt))}::int8[],
                  ${pins.map((p) => p.sentAt)}::int8[], ${pins.map((p) => opt(p.externalMessageId))}::text[], ${pins.map((p) => p.channel ?? 'SMS')}::text[])
             AS u(pin_id, account_id, application_id, message_id, msisdn, pin_type, pin_length, pin_hash, created_at,
                  expires_at, max_attempts, wrong_attempts, allow_multiple, verified_at, sent_at, external_message_id, channel)`;
  }
}
