import type { MessageContent, PhoneMessage } from './types.js';
import { isRcsContent } from './message-content.js';

/**
 * How a virtual phone shows a message it received: an SMS by its text (a binary one by its hex), an
 * RCS message by its content (and its text, when it is a TEXT message).
 */
export function receivedSms(sms: {
  accountId: string;
  number: string;
  sender: string | undefined;
  content: MessageContent;
  messageId: string;
  receivedAt: number;
}): PhoneMessage {
  const { content } = sms;
  const entry: PhoneMessage = { accountId: sms.accountId, number: sms.number, channel: 'SMS', messageId: sms.messageId, receivedAt: sms.receivedAt };
  if (isRcsContent(content)) {
    entry.channel = 'RCS';
    if (typeof content.text === 'string') entry.text = content.text;
    entry.content = content;
  } else {
    entry.text = 'text' in content ? content.text : content.hex;
  }
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
