/** Consume-once pull reports. */
import type { ApiFamily, MessageChannel, StatusRef } from './messages.js';

/** The structure of an RCS message as Infobip's reports name it (not its billing category). */
export type RcsInteractionType = 'BASIC_MESSAGE' | 'SINGLE_MESSAGE' | 'RICH_MESSAGE' | 'RICH_MEDIA_MESSAGE';

/** Everything needed to render a delivery report in any API shape, without another read. */
export interface ReportData {
  bulkId: string;
  messageId: string;
  to: string;
  sender?: string;
  sentAt: number;
  doneAt: number;
  messageCount: number;
  mccMnc?: string;
  callbackData?: string;
  status: StatusRef;
  errorId: number;
  entityId?: string;
  applicationId?: string;
  campaignReferenceId?: string;
  /** API family the message was sent with; webhooks use its shape. */
  api: ApiFamily;
  /** RCS with a failover: the channel this report is of (the RCS attempt, or the SMS sent instead). */
  channel?: MessageChannel;
  /** A report of an RCS attempt: the structure of the RCS message sent (its content decides it). */
  interactionType?: RcsInteractionType;
}

export interface ReportFilter {
  accountId: string;
  /** Which API's reports (SMS when absent): the SMS APIs share theirs, RCS has its own. */
  api?: 'sms' | 'rcs';
  since: number;
  bulkId?: string;
  messageId?: string;
  entityId?: string;
  applicationId?: string;
  campaignReferenceId?: string;
  limit: number;
}

export interface ReportStore {
  /** Returns and consumes (once only) the oldest pending reports matching the filter. */
  consume(filter: ReportFilter): Promise<ReportData[]>;
}
