import { formatInfobipTime } from '../../core/infobip-time.js';
import type { StoredMessage } from '../../core/store/types.js';
import { omitUndefined } from '../../core/omit-undefined.js';

/**
 * An RCS seen report (reference §8.5): the end user opened the message. Infobip's schema calls
 * `from` the number that sent the message and `to` the sender given at activation, which for an
 * outbound message's seen report reads as `from` = the end user (the message's destination) and
 * `to` = the RCS sender (agent). UNCONFIRMED which party each holds on a real account.
 */
export interface SeenReport {
  messageId: string;
  from: string;
  to?: string;
  sentAt: string;
  seenAt: string;
  applicationId?: string;
  entityId?: string;
  campaignReferenceId?: string;
}

/** A message never handed to a network counts as sent when accepted, as in its delivery report. */
export function renderSeenReport(m: StoredMessage, seenAt: number): SeenReport {
  return omitUndefined({
    messageId: m.messageId,
    from: m.destination,
    to: m.sender,
    sentAt: formatInfobipTime(m.sentAt ?? m.createdAt),
    seenAt: formatInfobipTime(seenAt),
    applicationId: m.applicationId,
    entityId: m.entityId,
    campaignReferenceId: m.campaignReferenceId,
  });
}
