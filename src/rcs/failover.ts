import { newMessageId } from '../core/ids.js';
import { ERROR, STATUS, ref } from '../core/pipeline/statuses.js';
import type { NewMessage, StoredMessage } from '../core/store/types.js';
import { prepareText } from '../sms/accept/prepare-content.js';
import { MAX_VALIDITY_MS } from '../sms/accept/timing.js';

/** An RCS message's `options.smsFailover` as kept in its extras. */
export interface SmsFailover {
  sender?: string;
  text: string;
  /** The SMS's validity from when it is created; 48 hours when absent. */
  validityMs?: number;
}

export const failoverOf = (message: StoredMessage): SmsFailover | undefined =>
  message.channel === 'RCS' ? (message.extras?.smsFailover as SmsFailover | undefined) : undefined;

/**
 * The SMS an RCS message that could not be delivered becomes: the failover's sender and text, sent
 * for the RCS API (its reports go where the RCS message's go, under the RCS message's id, with
 * `channel: SMS`), and an SMS on the SMS pipeline like any other (it shows in the SMS logs).
 */
export function smsFailoverFor(message: StoredMessage, at: number): NewMessage | undefined {
  const failover = failoverOf(message);
  if (failover === undefined) return undefined;
  const prepared = prepareText({ text: failover.text });
  const sms: NewMessage = {
    accountId: message.accountId,
    messageId: newMessageId(),
    bulkId: message.bulkId,
    api: 'rcs2',
    destination: message.destination,
    content: prepared.content,
    encoding: prepared.encoding,
    messageCount: prepared.messageCount,
    webhook: message.webhook,
    extras: failoverExtras(message),
    createdAt: at,
    dueAt: at,
    validUntil: at + Math.min(failover.validityMs ?? MAX_VALIDITY_MS, MAX_VALIDITY_MS),
    state: prepared.tooLong ? 'final' : 'queued',
    status: ref(prepared.tooLong ? STATUS.REJECTED_MESSAGE_TOO_LONG : STATUS.PENDING_ACCEPTED),
    errorId: prepared.tooLong ? ERROR.EC_MSG_TEXT_TOO_LONG.id : ERROR.NO_ERROR.id,
  };
  const sender = failover.sender ?? message.sender;
  if (sender !== undefined) sms.sender = sender;
  if (message.callbackData !== undefined) sms.callbackData = message.callbackData;
  if (message.entityId !== undefined) sms.entityId = message.entityId;
  if (message.applicationId !== undefined) sms.applicationId = message.applicationId;
  if (message.campaignReferenceId !== undefined) sms.campaignReferenceId = message.campaignReferenceId;
  return sms;
}

/** The SMS names the RCS message it carries on for, and keeps the failover's `regional` as an SMS keeps its own. */
function failoverExtras(message: StoredMessage): Record<string, unknown> {
  const extras: Record<string, unknown> = { failoverOf: message.messageId };
  const regional = message.extras?.smsFailoverRegional;
  if (regional !== undefined) extras.regional = regional;
  return extras;
}
