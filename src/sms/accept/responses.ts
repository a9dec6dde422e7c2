import type { StatusObject } from '../../core/pipeline/statuses.js';
import type { AcceptOutcome } from './sms-acceptor.js';

export interface SendV3Response {
  bulkId: string;
  messages: Array<{ messageId: string; status: StatusObject; destination: string; details: { messageCount: number } }>;
}

export interface SendLegacyResponse {
  bulkId: string;
  messages: Array<{ to: string; status: StatusObject; messageId: string; smsCount: number }>;
}

/** `details.messageCount` is always present: Infobip's examples carry it even when not asked for. */
export function v3Response(outcome: AcceptOutcome): SendV3Response {
  return {
    bulkId: outcome.bulkId,
    messages: outcome.entries.map((entry) => ({
      messageId: entry.messageId,
      status: entry.status,
      destination: entry.to,
      details: { messageCount: entry.messageCount },
    })),
  };
}

export function legacyResponse(outcome: AcceptOutcome): SendLegacyResponse {
  return {
    bulkId: outcome.bulkId,
    messages: outcome.entries.map((entry) => ({
      to: entry.to,
      status: entry.status,
      messageId: entry.messageId,
      smsCount: entry.messageCount,
    })),
  };
}
