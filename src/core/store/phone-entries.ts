import type { MessageContent, PhoneMessage } from './types.js';

/** How a virtual phone shows an SMS it received: its text, or a binary message's hex. */
export function receivedSms(sms: {
  accountId: string;
  number: string;
  sender: string | undefined;
  content: MessageContent;
  messageId: string;
  receivedAt: number;
}): PhoneMessage {
  const entry: PhoneMessage = {
    accountId: sms.accountId,
    number: sms.number,
    channel: 'SMS',
    text: 'text' in sms.content ? sms.content.text : sms.content.hex,
    messageId: sms.messageId,
    receivedAt: sms.receivedAt,
  };
  if (sms.sender !== undefined) entry.from = sms.sender;
  return entry;
}

/**
 * The newest `limit` of two lists that are each newest first: received SMS (from the messages) and
 * recorded entries. At the same instant the SMS comes first.
 */
export function newestFirst(sms: PhoneMessage[], recorded: PhoneMessage[], limit: number): PhoneMessage[] {
  const merged: PhoneMessage[] = [];
  let i = 0;
  let j = 0;
  while (merged.length < limit && (i < sms.length || j < recorded.length)) {
    const next = j >= recorded.length || (i < sms.length && sms[i]!.receivedAt >= recorded[j]!.receivedAt) ? sms[i++]! : recorded[j++]!;
    merged.push(next);
  }
  return merged;
}
