import type { ApiFamily, DeliveryWindow, MessageContent, MessageWebhook } from '../../core/store/types.js';
import type { SpeedLimit } from './timing.js';

/**
 * One send request in a shape shared by every API generation: the v3 and legacy readers turn their
 * bodies into this after validation, and acceptance works on it alone.
 */
export interface SendRequest {
  api: ApiFamily;
  /** Caller's bulk id; generated when absent. */
  bulkId?: string;
  speedLimit?: SpeedLimit;
  messages: MessageDefinition[];
}

export interface DestinationInput {
  /** As the caller sent it; echoed in the response. */
  to: string;
  messageId?: string;
  networkId?: number;
}

/** Content as it will be stored, with its counting done once for all destinations. */
export interface PreparedContent {
  content: MessageContent;
  encoding: 'GSM7' | 'UCS2' | 'BINARY';
  messageCount: number;
  tooLong: boolean;
}

/** One element of `messages[]`: everything its destinations share. */
export interface MessageDefinition {
  sender?: string;
  destinations: DestinationInput[];
  content: PreparedContent;
  callbackData?: string;
  entityId?: string;
  applicationId?: string;
  campaignReferenceId?: string;
  webhook: MessageWebhook;
  validityMs: number;
  deliveryWindow?: DeliveryWindow;
  /** Effective scheduled time, already validated and at least acceptance time. */
  sendAt?: number;
  extras?: Record<string, unknown>;
}

/** Webhook options of a message that set none; shared by all such messages, never mutated. */
export const DEFAULT_WEBHOOK: MessageWebhook = Object.freeze({ intermediateReport: false, notify: true });
