import { classifyRefusal, pinCountsOf } from '../pin-outcome.js';
import type { PinRecord, VerifyOutcome } from '../types.js';
import type { Row, Sql } from './shared.js';
import { TurnRounds } from './turn-rounds.js';

interface Guess {
  accountId: string;
  pinId: string;
  correct: boolean;
  now: number;
}

interface UpdatedRow {
  pin_id: string;
  account_id: string;
  wrong_attempts: number;
  max_attempts: number;
  verified_at: number | null;
}

const idOf = (accountId: string, pinId: string): string => `${accountId}\u0000${pinId}`;

/**
 * The guesses of one turn applied by one statement a round (TurnRounds): an UPDATE joined to the
 * guesses, counting a wrong one or verifying a right one on each PIN still open, then one read of
 * the PINs it left alone to say why. Guesses at one PIN go in successive rounds, and other nodes'
 * statements wait for the row's lock and re-check the condition, so no more than max_attempts wrong
 * guesses are ever counted.
 */
export class PgPinVerifications {
  private readonly rounds: TurnRounds<Guess, VerifyOutcome | undefined>;

  constructor(
    private readonly sql: Sql,
    private readonly toPin: (row: Row) => PinRecord,
  ) {
    this.rounds = new TurnRounds((guess) => idOf(guess.accountId, guess.pinId), (guesses) => this.apply(guesses));
  }

  verify(accountId: string, pinId: string, correct: boolean, now: number): Promise<VerifyOutcome | undefined> {
    return this.rounds.add({ accountId, pinId, correct, now });
  }

  private async apply(round: Guess[]): Promise<Array<VerifyOutcome | undefined>> {
    // `correct` goes as 1 or 0: postgres.js does not send boolean arrays.
    const updated = await this.sql<UpdatedRow[]>`
      UPDATE pins p SET
        wrong_attempts = p.wrong_attempts + 1 - g.correct,
        verified_at = CASE WHEN g.correct = 1 THEN coalesce(p.verified_at, g.now) ELSE p.verified_at END
      FROM unnest(${round.map((g) => g.pinId)}::text[], ${round.map((g) => g.accountId)}::text[],
                  ${round.map((g) => (g.correct ? 1 : 0))}::int4[], ${round.map((g) => g.now)}::int8[]) AS g(pin_id, account_id, correct, now)
      WHERE p.pin_id = g.pin_id AND p.account_id = g.account_id
        AND p.expires_at > g.now AND p.wrong_attempts < p.max_attempts AND (p.allow_multiple OR p.verified_at IS NULL)
      RETURNING p.pin_id, p.account_id, p.wrong_attempts, p.max_attempts, p.verified_at`;
    const changed = new Map(updated.map((row) => [idOf(row.account_id, row.pin_id), row]));
    const refused = round.filter((g) => !changed.has(idOf(g.accountId, g.pinId)));
    const pins = new Map<string, PinRecord>();
    if (refused.length > 0) {
      const rows = await this.sql`
        SELECT p.* FROM pins p
        JOIN unnest(${refused.map((g) => g.pinId)}::text[], ${refused.map((g) => g.accountId)}::text[]) AS g(pin_id, account_id)
          ON p.pin_id = g.pin_id AND p.account_id = g.account_id`;
      for (const row of rows) pins.set(idOf(row.account_id, row.pin_id), this.toPin(row));
    }
    return round.map((guess): VerifyOutcome | undefined => {
      const id = idOf(guess.accountId, guess.pinId);
      const row = changed.get(id);
      if (row) return { result: guess.correct ? 'verified' : 'wrong', pin: pinCountsOf(row) };
      const pin = pins.get(id);
      return pin && { result: classifyRefusal(pin, guess.now), pin };
    });
  }
}
