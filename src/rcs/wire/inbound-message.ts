import { formatInfobipTime } from '../../core/infobip-time.js';
import { rcsInteractionType } from '../../core/store/message-content.js';
import type { RcsInteractionType } from '../../core/store/types.js';
import { price, type MessagePrice, type Platform } from '../../sms/wire/common-shapes.js';
import { omitUndefined } from '../../core/omit-undefined.js';
import type { RcsInboundContent } from '../../network/rcs-network.js';
import type { RcsConversation } from './delivery-report.js';

export type { RcsInboundContent };

/** The outbound RCS message an inbound one answers: its id and what was sent with it. */
export interface PairedMessage {
  messageId: string;
  callbackData?: string;
  entityId?: string;
  applicationId?: string;
  campaignReferenceId?: string;
}

export interface RcsInbound {
  messageId: string;
  /** The end user's number. */
  from: string;
  /** The RCS sender (agent) it was sent to. */
  to: string;
  receivedAt: number;
  content: RcsInboundContent;
  keyword?: string;
  paired?: PairedMessage;
}

/** One item of the RCS inbound message webhook (Infobip's RcsInboundMessage). */
export interface RcsInboundWire {
  campaignReferenceId?: string;
  sender: string;
  to: string;
  integrationType: 'RCS';
  receivedAt: string;
  interactionType: RcsInteractionType;
  rcsCount: number;
  keyword?: string;
  messageId: string;
  pairedMessageId?: string;
  callbackData?: string;
  message: RcsInboundContent;
  price: MessagePrice;
  conversation: RcsConversation;
  platform: Platform;
}

/**
 * Every field Infobip's schema requires is present. Decisions: `price` is 0 EUR without
 * `trafficType` (nothing is charged); `conversation` is `{canInitiate: true, id: null}` since
 * Switchboard keeps no conversations, so no message belongs to one and any can start one;
 * `platform` is that of the paired message, `{}` when there is none; `rcsCount` is 1 (more only
 * for rich messages in markets Switchboard does not model); a text's interaction type follows its
 * length, a suggestion or location is BASIC_MESSAGE as in Infobip's examples. UNCONFIRMED all.
 */
export function renderRcsInbound(m: RcsInbound): RcsInboundWire {
  const paired = m.paired;
  const interactionType = m.content.type === 'TEXT' ? rcsInteractionType(m.content) : 'BASIC_MESSAGE';
  return omitUndefined({
    campaignReferenceId: paired?.campaignReferenceId,
    sender: m.from,
    to: m.to,
    integrationType: 'RCS',
    receivedAt: formatInfobipTime(m.receivedAt),
    interactionType,
    rcsCount: 1,
    keyword: m.keyword,
    messageId: m.messageId,
    pairedMessageId: paired?.messageId,
    callbackData: paired?.callbackData,
    message: { ...m.content },
    price: price(),
    conversation: { canInitiate: true, id: null },
    platform: omitUndefined({ entityId: paired?.entityId, applicationId: paired?.applicationId }),
  });
}
