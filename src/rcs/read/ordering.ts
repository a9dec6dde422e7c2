import type { Violation } from '../../core/errors/api-problem.js';
import type { RcsMessageBody, RcsSendBody } from '../schemas/send.js';
import type { RcsOrdering } from './send-request.js';

/**
 * `options.messageOrdering` (reference §4.1). Its rules bind only a request that gives it, with
 * `respectOrder` true or absent (it defaults to true): 2 to 10 messages, none with failover, or
 * exactly 2 where only the first has one; and every message shares the properties below.
 */

const MIN_ORDERED = 2;
const MAX_ORDERED = 10;
const WHEN_ORDERED = 'when options.messageOrdering.respectOrder is true';

/**
 * What must be the same in every ordered message, each read into a comparable value: absent
 * options equal their defaults (no `webhooks.delivery` is `{notify: true}`), key order and the
 * order of delivery days do not matter.
 */
// UNCONFIRMED: "same destinations" compares the `to` lists in order; caller messageIds cannot be shared (they are unique per message), so they are left out.
const SHARED: ReadonlyArray<[property: string, comparable: (message: RcsMessageBody) => unknown]> = [
  ['sender', (m) => m.sender],
  ['destinations', (m) => m.destinations.map((d) => d.to)],
  ['options.platform', (m) => [m.options?.platform?.entityId, m.options?.platform?.applicationId]],
  ['options.deliveryTimeWindow', (m) => comparableWindow(m.options?.deliveryTimeWindow)],
  ['options.campaignReferenceId', (m) => m.options?.campaignReferenceId],
  [
    'webhooks.delivery',
    (m) => {
      const d = m.webhooks?.delivery;
      return [d?.url, d?.intermediateReport ?? false, d?.notify ?? true, d?.receiveTriggeredFailoverReports ?? false];
    },
  ],
  ['webhooks.contentType', (m) => m.webhooks?.contentType],
  ['webhooks.callbackData', (m) => m.webhooks?.callbackData],
  ['webhooks.seen', (m) => m.webhooks?.seen?.url],
];

function comparableWindow(window: NonNullable<RcsMessageBody['options']>['deliveryTimeWindow']): unknown {
  if (window === undefined) return undefined;
  const time = (t: { hour: number; minute: number } | undefined) => (t === undefined ? null : [t.hour, t.minute]);
  return [[...new Set(window.days)].sort(), time(window.from), time(window.to)];
}

const failoverKey = (message: RcsMessageBody): 'smsFailover' | 'mmsFailover' | undefined =>
  message.options?.smsFailover !== undefined ? 'smsFailover' : message.options?.mmsFailover !== undefined ? 'mmsFailover' : undefined;

/** The ordering a request asks for, or undefined when its messages are independent. */
export function readOrdering(body: RcsSendBody, out: Violation[]): RcsOrdering | undefined {
  const given = body.options?.messageOrdering;
  if (given === undefined || given.respectOrder === false) return undefined;
  const messages = body.messages;
  if (messages.length < MIN_ORDERED || messages.length > MAX_ORDERED) {
    out.push({ property: 'messages', violation: `must contain ${MIN_ORDERED} to ${MAX_ORDERED} messages ${WHEN_ORDERED}` });
  }
  let anyFailover = false;
  messages.forEach((message, i) => {
    const failover = failoverKey(message);
    if (failover === undefined) return;
    anyFailover = true;
    if (messages.length === 2 && i === 0) return;
    out.push({
      property: `messages[${i}].options.${failover}`,
      violation: `must not be given ${WHEN_ORDERED}, except on the first of exactly 2 messages`,
    });
  });
  const expected = SHARED.map(([, comparable]) => JSON.stringify(comparable(messages[0]!)));
  messages.forEach((message, i) => {
    if (i === 0) return;
    SHARED.forEach(([property, comparable], p) => {
      if (JSON.stringify(comparable(message)) === expected[p]) return;
      out.push({ property: `messages[${i}].${property}`, violation: `must be the same in every message ${WHEN_ORDERED}` });
    });
  });
  // Infobip: with failover "only the failover message" is sent and not the second message, whatever stopOnFailure says.
  return { stopOnFailure: anyFailover || (given.stopOnFailure ?? true) };
}
