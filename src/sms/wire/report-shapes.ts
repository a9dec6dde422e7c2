import { formatInfobipTime } from '../../core/infobip-time.js';
import { errorObject, statusObject, type ErrorObject, type StatusObject } from '../../core/pipeline/statuses.js';
import type { InboundMessage, ReportData } from '../../core/store/types.js';
import { platformOf, price, type MessagePrice, type Platform } from './common-shapes.js';
import { omitUndefined } from '../../core/omit-undefined.js';
import { renderRcsDeliveryReport, type RcsDeliveryReport } from '../../rcs/wire/delivery-report.js';

export type { MessagePrice, Platform } from './common-shapes.js';

/** Delivery report of `GET /sms/3/reports` and of webhooks for messages sent with `/sms/3/messages`. */
export interface V3DeliveryReport {
  bulkId: string;
  messageId: string;
  to: string;
  sender?: string;
  sentAt: string;
  doneAt: string;
  messageCount: number;
  mccMnc?: string;
  callbackData?: string;
  price: MessagePrice;
  status: StatusObject;
  error: ErrorObject;
  platform?: Platform;
  campaignReferenceId?: string;
}

/** Delivery report of `GET /sms/1/reports` and of webhooks for messages sent with `/sms/2/...`. */
export interface LegacyDeliveryReport {
  bulkId: string;
  messageId: string;
  to: string;
  from?: string;
  sentAt: string;
  doneAt: string;
  smsCount: number;
  mccMnc?: string;
  callbackData?: string;
  price: MessagePrice;
  status: StatusObject;
  error: ErrorObject;
  entityId?: string;
  applicationId?: string;
  campaignReferenceId?: string;
}

/** Inbound (MO) message of `GET /sms/1/inbox/reports` and of MO webhooks. */
export interface InboundWire {
  messageId: string;
  from: string;
  to: string;
  text: string;
  cleanText: string;
  keyword?: string;
  receivedAt: string;
  smsCount: number;
  price: MessagePrice;
  callbackData?: string;
  applicationId?: string;
  entityId?: string;
  campaignReferenceId?: string;
}

export function renderV3Report(data: ReportData): V3DeliveryReport {
  return omitUndefined({
    bulkId: data.bulkId,
    messageId: data.messageId,
    to: data.to,
    sender: data.sender,
    sentAt: formatInfobipTime(data.sentAt),
    doneAt: formatInfobipTime(data.doneAt),
    messageCount: data.messageCount,
    mccMnc: data.mccMnc,
    callbackData: data.callbackData,
    price: price(),
    status: { ...statusObject(data.status) },
    error: { ...errorObject(data.errorId) },
    platform: platformOf(data),
    campaignReferenceId: data.campaignReferenceId,
  });
}

export function renderLegacyReport(data: ReportData): LegacyDeliveryReport {
  return omitUndefined({
    bulkId: data.bulkId,
    messageId: data.messageId,
    to: data.to,
    from: data.sender,
    sentAt: formatInfobipTime(data.sentAt),
    doneAt: formatInfobipTime(data.doneAt),
    smsCount: data.messageCount,
    mccMnc: data.mccMnc,
    callbackData: data.callbackData,
    price: price(),
    status: { ...statusObject(data.status) },
    error: { ...errorObject(data.errorId) },
    entityId: data.entityId,
    applicationId: data.applicationId,
    campaignReferenceId: data.campaignReferenceId,
  });
}

/** Webhook bodies use the shape of the API the message was sent with. */
export function renderDeliveryReport(data: ReportData): V3DeliveryReport | LegacyDeliveryReport | RcsDeliveryReport {
  if (data.api === 'rcs2') return renderRcsDeliveryReport(data);
  return data.api === 'sms2' ? renderLegacyReport(data) : renderV3Report(data);
}

export function renderInbound(m: InboundMessage): InboundWire {
  return omitUndefined({
    messageId: m.messageId,
    from: m.from,
    to: m.to,
    text: m.text,
    cleanText: m.cleanText,
    keyword: m.keyword === '' ? undefined : m.keyword,
    receivedAt: formatInfobipTime(m.receivedAt),
    smsCount: m.smsCount,
    price: price(),
    callbackData: m.callbackData,
    applicationId: m.applicationId,
    entityId: m.entityId,
    campaignReferenceId: m.campaignReferenceId,
  });
}
