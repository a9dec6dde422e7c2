import { isRcsContent, rcsInteractionType } from './message-content.js';
import type { ReportData, StatusRef, StoredMessage } from './types.js';

/** The report of `m` reaching `status` at `at`; a message never handed to a carrier counts as sent at acceptance. */
export function reportDataFromMessage(m: StoredMessage, status: StatusRef, errorId: number, at: number): ReportData {
  // An RCS message's SMS failover reports under the RCS message's id: the only id its sender knows.
  const failoverOf = typeof m.extras?.failoverOf === 'string' ? m.extras.failoverOf : undefined;
  const report: ReportData = {
    bulkId: m.bulkId,
    messageId: failoverOf ?? m.messageId,
    to: m.destination,
    sentAt: m.sentAt ?? m.createdAt,
    doneAt: at,
    messageCount: m.messageCount,
    status: { groupId: status.groupId, id: status.id },
    errorId,
    api: m.api,
  };
  if (m.sender !== undefined) report.sender = m.sender;
  if (m.mccMnc !== undefined) report.mccMnc = m.mccMnc;
  if (m.callbackData !== undefined) report.callbackData = m.callbackData;
  if (m.entityId !== undefined) report.entityId = m.entityId;
  if (m.applicationId !== undefined) report.applicationId = m.applicationId;
  if (m.campaignReferenceId !== undefined) report.campaignReferenceId = m.campaignReferenceId;
  // Whenever a failover was defined, as Infobip documents; an MMS failover is kept but never sent.
  if (failoverOf !== undefined || m.extras?.smsFailover !== undefined || m.extras?.mmsFailover !== undefined) report.channel = m.channel ?? 'SMS';
  if (m.channel === 'RCS' && isRcsContent(m.content)) report.interactionType = rcsInteractionType(m.content);
  return report;
}

/**
 * The pull report of a final message: pull reports are not stored apart, they are the message's
 * final status, read back (see StatusChange.pullReport).
 */
export function finalReportOf(m: StoredMessage): ReportData {
  return reportDataFromMessage(m, m.status, m.errorId, m.doneAt ?? m.createdAt);
}
