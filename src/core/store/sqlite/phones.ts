import type { PhoneMessage, PhoneStore } from '../types.js';
import { compact, jsonOrNull, nullToUndefined, orNull, parseJsonOrUndefined, preparedOnce, type Db } from './shared.js';

interface PhoneRow {
  account_id: string;
  number: string;
  channel: string;
  from_number: string | null;
  text: string | null;
  message_id: string | null;
  received_at: number;
  payload: string | null;
}

const toPhoneMessage = (row: PhoneRow): PhoneMessage =>
  compact({
    accountId: row.account_id,
    number: row.number,
    channel: row.channel,
    from: nullToUndefined(row.from_number),
    text: nullToUndefined(row.text),
    messageId: nullToUndefined(row.message_id),
    receivedAt: row.received_at,
    payload: parseJsonOrUndefined<Record<string, unknown>>(row.payload),
  });

export class SqlitePhoneStore implements PhoneStore {
  private readonly sql = preparedOnce(() => ({
    // Positional parameters (see MESSAGE_INSERT_SQL): the sandbox records one row per message.
    insert: this.db.prepare<
      [
        accountId: string,
        number: string,
        channel: string,
        from: string | null,
        text: string | null,
        messageId: string | null,
        receivedAt: number,
        payload: string | null,
      ]
    >(
      `INSERT INTO phone_messages (account_id, number, channel, from_number, text, message_id, received_at, payload)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    list: this.db.prepare<[string, string, number], PhoneRow>(
      `SELECT * FROM phone_messages WHERE account_id = ? AND number = ?
       ORDER BY received_at DESC, id DESC LIMIT ?`,
    ),
  }));

  private readonly recordTransaction = preparedOnce(() =>
    this.db.transaction((messages: readonly PhoneMessage[]) => {
      for (const message of messages) this.insert(message);
    }),
  );

  constructor(private readonly db: Db) {}

  async record(message: PhoneMessage): Promise<void> {
    this.recordTransaction().immediate([message]);
  }

  async recordMany(messages: PhoneMessage[]): Promise<void> {
    this.recordTransaction().immediate(messages);
  }

  /** Records a message inside the caller's transaction (status changes that deliver one carry it). */
  insert(message: PhoneMessage): void {
    this.sql().insert.run(
      message.accountId,
      message.number,
      message.channel,
      orNull(message.from),
      orNull(message.text),
      orNull(message.messageId),
      message.receivedAt,
      jsonOrNull(message.payload),
    );
  }

  async list(accountId: string, number: string, limit: number): Promise<PhoneMessage[]> {
    return this.sql().list.all(accountId, number, limit).map(toPhoneMessage);
  }
}
