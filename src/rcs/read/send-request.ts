import type { DeliveryWindow, MessageWebhook } from '../../core/store/types.js';
import type { RegionalBody, UrlOptionsBody } from '../../sms/schemas/send-common.js';
import type { SpeedLimit } from '../../sms/accept/timing.js';
import type { RcsContentBody } from '../schemas/content.js';
import type { MmsSegmentBody } from '../schemas/failover.js';

/**
 * One `POST /rcs/2/messages` request after validation, modelled on the SMS SendRequest: what
 * acceptance needs, with every check of the body done. Times are epoch milliseconds.
 */
export interface RcsSendRequest {
  /** Caller's bulk id; generated when absent. */
  bulkId?: string;
  speedLimit?: SpeedLimit;
  /** Effective scheduled time of every message, already validated and at least acceptance time. */
  sendAt?: number;
  /** `options.tracking` as given (URL shortening and click tracking are stored, not performed). */
  tracking?: UrlOptionsBody;
  /** Present when the messages go out one after the other in request order (`options.messageOrdering`). */
  ordering?: RcsOrdering;
  messages: RcsMessageDefinition[];
}

export interface RcsOrdering {
  /** Send nothing more after a message fails. */
  stopOnFailure: boolean;
}

export interface RcsDestination {
  /** As the caller sent it; echoed in the response. */
  to: string;
  messageId?: string;
}

/** One element of `messages[]`: everything its destinations share. */
export interface RcsMessageDefinition {
  sender?: string;
  destinations: RcsDestination[];
  /** As given (validated), for storage and for the logs' `content` echo. */
  content: RcsContentBody;
  validityMs: number;
  deliveryWindow?: DeliveryWindow;
  campaignReferenceId?: string;
  platform?: { entityId?: string; applicationId?: string };
  failover?: RcsFailover;
  webhook: RcsWebhook;
}

export type RcsFailover = SmsFailover | MmsFailover;

export interface SmsFailover {
  channel: 'SMS';
  sender?: string;
  text: string;
  validityMs: number;
  regional?: RegionalBody;
}

export interface MmsFailover {
  channel: 'MMS';
  sender?: string;
  validityMs: number;
  title?: string;
  segments: MmsSegmentBody[];
}

export interface RcsWebhook extends MessageWebhook {
  /** Report every failover step, not only the final one. */
  receiveTriggeredFailoverReports: boolean;
  seenUrl?: string;
  callbackData?: string;
}
