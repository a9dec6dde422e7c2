import { formatInfobipTime } from '../../core/infobip-time.js';
import { errorObject, statusObject, type ErrorObject, type StatusObject } from '../../core/pipeline/statuses.js';
import type { SmsContent, StoredMessage } from '../../core/store/types.js';
import { platformOf, price, type MessagePrice, type Platform } from './common-shapes.js';
import { omitUndefined } from '../../core/omit-undefined.js';
import { isRcsContent } from '../../core/store/message-content.js';

/** Log content: `text` or `hex` is always present, which is how SDKs tell the two shapes apart. */
export type LogContent = { text: string } | { hex: string; dataCoding?: number; esmClass?: number };

/** One entry of `GET /sms/3/logs`. */
export interface V3SmsLog {
  sender?: string;
  destination: string;
  bulkId: string;
  messageId: string;
  sentAt: string;
  doneAt?: string;
  messageCount: number;
  price: MessagePrice;
  status: StatusObject;
  error: ErrorObject;
  platform?: Platform;
  content: LogContent;
  campaignReferenceId?: string;
  mccMnc?: string;
}

/** One entry of the legacy `GET /sms/1/logs`. */
export interface LegacySmsLog {
  bulkId: string;
  messageId: string;
  to: string;
  from?: string;
  text?: string;
  sentAt: string;
  doneAt?: string;
  smsCount: number;
  mccMnc?: string;
  price: MessagePrice;
  status: StatusObject;
  error: ErrorObject;
  applicationId?: string;
  entityId?: string;
  campaignReferenceId?: string;
}

export function logContent(content: SmsContent): LogContent {
  if ('hex' in content) return omitUndefined({ hex: content.hex, dataCoding: content.dataCoding, esmClass: content.esmClass });
  return { text: content.text };
}

/**
 * A message not yet final shows its current status and no `doneAt`. One rejected at acceptance
 * was finished when accepted, so it falls back to that instant.
 */
const doneAtOf = (m: StoredMessage): string | undefined =>
  m.state === 'final' ? formatInfobipTime(m.doneAt ?? m.sentAt ?? m.createdAt) : undefined;

/** Messages never handed to a carrier (rejected, still queued) count as sent when accepted. */
const sentAtOf = (m: StoredMessage): string => formatInfobipTime(m.sentAt ?? m.createdAt);

/**
 * The fields every v3-generation log shares (SMS v3 and RCS v2 logs): each API adds its content,
 * and SMS its mccMnc.
 */
export type V3LogCommon = Omit<V3SmsLog, 'content' | 'mccMnc'>;

export function v3LogCommon(m: StoredMessage): V3LogCommon {
  return omitUndefined({
    sender: m.sender,
    destination: m.destination,
    bulkId: m.bulkId,
    messageId: m.messageId,
    sentAt: sentAtOf(m),
    doneAt: doneAtOf(m),
    messageCount: m.messageCount,
    price: price(),
    status: { ...statusObject(m.status) },
    error: { ...errorObject(m.errorId) },
    platform: platformOf(m),
    campaignReferenceId: m.campaignReferenceId,
  });
}

export function renderV3Log(m: StoredMessage): V3SmsLog {
  const { campaignReferenceId, ...common } = v3LogCommon(m);
  return omitUndefined({
    ...common,
    content: logContent(m.content as SmsContent),
    campaignReferenceId,
    mccMnc: m.mccMnc,
  });
}

export function renderLegacyLog(m: StoredMessage): LegacySmsLog {
  return omitUndefined({
    bulkId: m.bulkId,
    messageId: m.messageId,
    to: m.destination,
    from: m.sender,
    text: 'text' in m.content && !isRcsContent(m.content) ? m.content.text : undefined,
    sentAt: sentAtOf(m),
    doneAt: doneAtOf(m),
    smsCount: m.messageCount,
    mccMnc: m.mccMnc,
    price: price(),
    status: { ...statusObject(m.status) },
    error: { ...errorObject(m.errorId) },
    applicationId: m.applicationId,
    entityId: m.entityId,
    campaignReferenceId: m.campaignReferenceId,
  });
}
