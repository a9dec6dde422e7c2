import { randomUUID } from 'node:crypto';
import type { InboundMessage, NewMessage, StatusRef, Store, StoredMessage } from '../../src/core/store/types.js';
import type { TestServer } from '../helpers/server.js';

/** Data written straight to the store, shaped so the running pipeline never touches it. */

export const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/;
export const HOUR = 3_600_000;
const FAR = 365 * 24 * HOUR;

export const PENDING_ACCEPTED: StatusRef = { groupId: 1, id: 26 };
export const DELIVERED: StatusRef = { groupId: 3, id: 5 };
export const UNDELIVERABLE: StatusRef = { groupId: 2, id: 9 };
export const EXPIRED: StatusRef = { groupId: 4, id: 15 };

export async function defaultAccountId(server: TestServer): Promise<string> {
  const account = await server.ctx.store.accounts.findByName(server.ctx.config.defaultAccount);
  if (!account) throw new Error('the test server has no default account');
  return account.id;
}

export { otherAccount } from '../helpers/accounts.js';

export interface SeedSpec extends Partial<NewMessage> {
  /** Hand the message to a (pretend) carrier at this instant. */
  sentAt?: number;
  /** Apply this final status at this instant, queueing its pull report. */
  final?: { status: StatusRef; errorId?: number; at: number; mccMnc?: string };
}

/**
 * Inserts messages in order (later ones get larger pks, so they are "newer"). They are queued far
 * in the future with a carrier nobody serves, so neither the dispatcher nor receipt handling moves them.
 */
export async function seedMessages(store: Store, accountId: string, now: number, specs: SeedSpec[]): Promise<StoredMessage[]> {
  const out: StoredMessage[] = [];
  for (const spec of specs) {
    const { sentAt, final, ...fields } = spec;
    const message: NewMessage = {
      accountId,
      messageId: randomUUID(),
      bulkId: randomUUID(),
      api: 'sms3',
      destination: '41793026727',
      content: { text: 'hello' },
      encoding: 'GSM7',
      messageCount: 1,
      webhook: { intermediateReport: false, notify: false },
      createdAt: now,
      dueAt: now + FAR,
      validUntil: now + FAR,
      state: 'queued',
      status: PENDING_ACCEPTED,
      errorId: 0,
      ...fields,
    };
    const [pk] = await store.messages.insertMany([message]);
    if (typeof pk !== 'number') throw new Error('seed message unexpectedly duplicate');
    if (sentAt !== undefined) {
      await store.messages.markSubmitted([{ accountId, pk, carrier: 'seed-carrier', carrierMessageId: `seed-${pk}`, at: sentAt }]);
    }
    if (final) await finish(store, accountId, message.messageId, final);
    const stored = await store.messages.get(accountId, message.messageId);
    if (!stored) throw new Error('seed message vanished');
    out.push(stored);
  }
  return out;
}

/** Applies a status change with its pull report, as the pipeline does. */
export async function finish(
  store: Store,
  accountId: string,
  messageId: string,
  change: { status: StatusRef; errorId?: number; at: number; mccMnc?: string; final?: boolean },
): Promise<void> {
  const stored = await store.messages.get(accountId, messageId);
  if (!stored) throw new Error(`no message ${messageId}`);
  const errorId = change.errorId ?? 0;
  await store.messages.applyStatusChanges([
    {
      accountId,
      pk: stored.pk,
      status: change.status,
      errorId,
      final: change.final ?? true,
      at: change.at,
      ...(change.mccMnc === undefined ? {} : { mccMnc: change.mccMnc }),
      pullReport: true,
    },
  ]);
}

export async function seedInbound(store: Store, accountId: string, receivedAt: number, overrides: Partial<InboundMessage> = {}): Promise<InboundMessage> {
  const message: InboundMessage = {
    accountId,
    messageId: String(100_000_000_000_000_000n + BigInt(Math.floor(Math.random() * 1e12))),
    from: '385916242493',
    to: '385921004026',
    text: 'QUIZ Correct answer is Paris',
    cleanText: 'Correct answer is Paris',
    keyword: 'QUIZ',
    receivedAt,
    smsCount: 1,
    ...overrides,
  };
  await store.inbound.insert(message, { pullable: true });
  return message;
}

/** Query string from pairs, so a parameter can repeat. */
export function qs(pairs: Array<[string, string | number | boolean]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of pairs) params.append(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
