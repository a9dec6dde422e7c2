import { newestFirst, receivedSms } from '../phone-entries.js';
import type { MessageContent, PhoneMessage, PhoneStore, PhoneSummary, ReceivedSms } from '../types.js';
import { jsonOrNull, nullToUndefined, orNull, parseJson, parseJsonOrUndefined, preparedOnce, type Db } from './shared.js';
import { omitUndefined } from '../../omit-undefined.js';

interface PhoneRow {
  account_id: string;
  number: string;
  channel: string;
  from_number: string | null;
  text: string | null;
  message_id: string | null;
  received_at: number;
  payload: string | null;
  direction: 'received' | 'sent';
  to_number: string | null;
}

interface SummaryRow {
  number: string;
  last_at: number;
  received: number;
  sent: number;
  text: string | null;
  content: string | null;
  payload: string | null;
}

/** A message the phone received (messages.phone_at set). */
interface ReceivedSmsRow {
  account_id: string;
  phone_number: string;
  sender: string | null;
  content: string;
  message_id: string;
  phone_at: number;
}

const toPhoneMessage = (row: PhoneRow): PhoneMessage =>
  omitUndefined({
    accountId: row.account_id,
    number: row.number,
    channel: row.channel,
    direction: row.direction === 'sent' ? 'sent' : undefined,
    from: nullToUndefined(row.from_number),
    to: nullToUndefined(row.to_number),
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
        direction: string,
        to: string | null,
      ]
    >(
      `INSERT INTO phone_messages (account_id, number, channel, from_number, text, message_id, received_at, payload, direction, to_number)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    list: this.db.prepare<[string, string, number], PhoneRow>(
      `SELECT * FROM phone_messages WHERE account_id = ? AND number = ? AND direction = 'received'
       ORDER BY received_at DESC, id DESC LIMIT ?`,
    ),
    listWithSent: this.db.prepare<[string, string, number], PhoneRow>(
      `SELECT * FROM phone_messages WHERE account_id = ? AND number = ?
       ORDER BY received_at DESC, id DESC LIMIT ?`,
    ),
    // The newest entry gives the preview; at one instant a received SMS counts as newer, as the
    // phone's list shows it first.
    summaries: this.db.prepare<{ accountId: string; limit: number }, SummaryRow>(
      `WITH activity AS (
         SELECT phone_number AS number, phone_at AS at, 0 AS src, pk AS id, 1 AS received, 0 AS sent, NULL AS text, content, NULL AS payload
         FROM messages WHERE account_id = @accountId AND phone_at IS NOT NULL
         UNION ALL
         SELECT number, received_at, 1, id, direction = 'received', direction = 'sent', text, NULL, payload
         FROM phone_messages WHERE account_id = @accountId),
       totals AS (
         SELECT number, max(at) AS last_at, sum(received) AS received, sum(sent) AS sent
         FROM activity GROUP BY number ORDER BY last_at DESC, number LIMIT @limit),
       latest AS (
         SELECT number, text, content, payload, row_number() OVER (PARTITION BY number ORDER BY at DESC, src, id DESC) AS n
         FROM activity WHERE number IN (SELECT number FROM totals))
       SELECT t.number, t.last_at, t.received, t.sent, l.text, l.content, l.payload
       FROM totals t JOIN latest l ON l.number = t.number AND l.n = 1
       ORDER BY t.last_at DESC, t.number`,
    ),
    markSms: this.db.prepare<[string, number, string, number]>(
      'UPDATE messages SET phone_number = ?, phone_at = ? WHERE account_id = ? AND pk = ?',
    ),
    listSms: this.db.prepare<[string, string, number], ReceivedSmsRow>(
      `SELECT account_id, phone_number, sender, content, message_id, phone_at FROM messages
       WHERE account_id = ? AND phone_number = ? AND phone_at IS NOT NULL
       ORDER BY phone_at DESC, pk DESC LIMIT ?`,
    ),
  }));

  private readonly recordTransaction = preparedOnce(() =>
    this.db.transaction((messages: readonly PhoneMessage[]) => {
      for (const message of messages) this.insert(message);
    }),
  );

  private readonly recordSmsTransaction = preparedOnce(() =>
    this.db.transaction((received: readonly ReceivedSms[]) => {
      const { markSms } = this.sql();
      for (const sms of received) markSms.run(sms.number, sms.at, sms.accountId, sms.pk);
    }),
  );

  constructor(private readonly db: Db) {}

  async record(message: PhoneMessage): Promise<void> {
    this.recordTransaction().immediate([message]);
  }

  async recordMany(messages: PhoneMessage[]): Promise<void> {
    this.recordTransaction().immediate(messages);
  }

  async recordSms(received: ReceivedSms[]): Promise<void> {
    this.recordSmsTransaction().immediate(received);
  }

  /** Inserts entries inside the caller's transaction (a call's step records what its phone heard). */
  insertEntries(messages: readonly PhoneMessage[]): void {
    for (const message of messages) this.insert(message);
  }

  private insert(message: PhoneMessage): void {
    this.sql().insert.run(
      message.accountId,
      message.number,
      message.channel,
      orNull(message.from),
      orNull(message.text),
      orNull(message.messageId),
      message.receivedAt,
      jsonOrNull(message.payload),
      message.direction ?? 'received',
      orNull(message.to),
    );
  }

  async list(accountId: string, number: string, limit: number, options: { includeSent?: boolean } = {}): Promise<PhoneMessage[]> {
    const { listSms } = this.sql();
    const list = options.includeSent ? this.sql().listWithSent : this.sql().list;
    const sms = listSms.all(accountId, number, limit).map((row) =>
      receivedSms({
        accountId: row.account_id,
        number: row.phone_number,
        sender: nullToUndefined(row.sender),
        content: parseJson<MessageContent>(row.content),
        messageId: row.message_id,
        receivedAt: row.phone_at,
      }),
    );
    return newestFirst(sms, list.all(accountId, number, limit).map(toPhoneMessage), limit);
  }

  async summaries(accountId: string, limit: number): Promise<PhoneSummary[]> {
    return this.sql()
      .summaries.all({ accountId, limit })
      .map((row) => ({
        number: row.number,
        lastAt: row.last_at,
        received: row.received,
        sent: row.sent,
        last: omitUndefined({
          text: nullToUndefined(row.text),
          content: row.content !== null ? parseJson<MessageContent>(row.content) : parseJsonOrUndefined<{ content?: MessageContent }>(row.payload)?.content,
        }),
      }));
  }
}
