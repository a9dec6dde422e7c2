import { formatInfobipTime } from '../../core/infobip-time.js';
import { errorObject, statusObject, STATUS_GROUPS, type ErrorObject, type StatusObject } from '../../core/pipeline/statuses.js';
import type { MessageChannel, RcsInteractionType, ReportData } from '../../core/store/types.js';
import { platformOf, price, type MessagePrice, type Platform } from '../../sms/wire/common-shapes.js';
import { omitUndefined } from '../../core/omit-undefined.js';

/** Conversation info; `id` is null outside a conversation, as Infobip emits it (not omitted). */
export interface RcsConversation {
  canInitiate: boolean;
  id: string | null;
}

/**
 * An RCS delivery report: an item of `GET /rcs/2/reports` and of the RCS delivery webhook
 * (reference §8.4). Decisions on the optional fields of Infobip's schema:
 *
 * - `channel` only when the message had a failover (ReportData.channel), as Infobip documents.
 * - `price` is 0 EUR like every price here, without `trafficType`: Infobip leaves it null for
 *   non-chargeable traffic, and nothing is charged here.
 * - `interactionType` on reports of the RCS attempt, from the content sent (see
 *   rcsInteractionType); absent on an SMS failover's report, as in Infobip's examples.
 * - `conversation` on reports of the RCS attempt, absent on an SMS failover's (as in Infobip's
 *   examples). Switchboard keeps no conversations (sessions), so no message belongs to one: `id`
 *   is null, and `canInitiate` (whether the message can start one) is true once it was delivered,
 *   false otherwise, which is what Infobip's examples without a conversation show. UNCONFIRMED.
 */
export interface RcsDeliveryReport {
  bulkId: string;
  messageId: string;
  to: string;
  sender?: string;
  channel?: MessageChannel;
  price: MessagePrice;
  status: StatusObject;
  error: ErrorObject;
  conversation?: RcsConversation;
  interactionType?: RcsInteractionType;
  sentAt: string;
  doneAt: string;
  messageCount: number;
  mccMnc?: string;
  callbackData?: string;
  platform?: Platform;
  campaignReferenceId?: string;
}

const DELIVERED_GROUP = STATUS_GROUPS.indexOf('DELIVERED');

export function renderRcsDeliveryReport(data: ReportData): RcsDeliveryReport {
  return omitUndefined({
    bulkId: data.bulkId,
    messageId: data.messageId,
    to: data.to,
    sender: data.sender,
    channel: data.channel,
    price: price(),
    status: { ...statusObject(data.status) },
    error: { ...errorObject(data.errorId) },
    conversation: data.interactionType === undefined ? undefined : { canInitiate: data.status.groupId === DELIVERED_GROUP, id: null },
    interactionType: data.interactionType,
    sentAt: formatInfobipTime(data.sentAt),
    doneAt: formatInfobipTime(data.doneAt),
    messageCount: data.messageCount,
    mccMnc: data.mccMnc,
    callbackData: data.callbackData,
    platform: platformOf(data),
    campaignReferenceId: data.campaignReferenceId,
  });
}
