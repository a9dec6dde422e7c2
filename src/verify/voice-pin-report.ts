import { ERROR, STATUS } from '../core/pipeline/statuses.js';
import type { CallRecord, OutboxItemInput } from '../core/store/types.js';
import { renderDeliveryReport } from '../sms/wire/report-shapes.js';
import type { WebhookDestination } from '../voice/call-steps.js';

/**
 * The delivery report of a voice PIN sent with trackDelivery, in the shape of an SMS report (the
 * shape Infobip gives voice message reports): delivered once the callee answered, else not
 * delivered. Its messageId is the call's id, the PIN's externalMessageId.
 */
export function voicePinReport(call: CallRecord, now: number, destinations: WebhookDestination[]): OutboxItemInput[] {
  const answered = call.answerTime !== undefined;
  const status = answered ? STATUS.DELIVERED_TO_HANDSET : STATUS.UNDELIVERABLE_NOT_DELIVERED;
  const payload = renderDeliveryReport({
    bulkId: call.callId,
    messageId: call.callId,
    to: call.to,
    sender: call.from,
    sentAt: call.startTime,
    doneAt: now,
    messageCount: 1,
    status: { groupId: status.groupId, id: status.id },
    errorId: answered ? ERROR.NO_ERROR.id : ERROR.EC_ABSENT_SUBSCRIBER.id,
    api: 'sms3',
  });
  return destinations.map((destination) => {
    const item: OutboxItemInput = {
      accountId: call.accountId,
      url: destination.url,
      format: 'sms-dlr',
      payload,
      subscriptionId: destination.subscriptionId,
      createdAt: now,
      dueAt: now,
    };
    if (destination.security) item.security = destination.security;
    return item;
  });
}
