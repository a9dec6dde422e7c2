/** Inbound (mobile-originated) messages. */
import type { OutboxItemInput } from './outbox.js';

export interface InboundMessage {
  accountId: string;
  messageId: string;
  from: string;
  to: string;
  text: string;
  cleanText: string;
  keyword?: string;
  receivedAt: number;
  smsCount: number;
  callbackData?: string;
  applicationId?: string;
  entityId?: string;
  campaignReferenceId?: string;
}

export interface InboundFilter {
  accountId: string;
  since: number;
  applicationId?: string;
  entityId?: string;
  campaignReferenceId?: string;
  limit: number;
}

export interface InboundStore {
  /** Stores an inbound message (pullable once unless `pullable` is false) with its webhook items, atomically. */
  insert(message: InboundMessage, options: { pullable: boolean; webhooks?: OutboxItemInput[] }): Promise<void>;
  /** Returns and consumes the oldest pending inbound messages, and how many remain pending. */
  consume(filter: InboundFilter): Promise<{ messages: InboundMessage[]; pending: number }>;
}
