import type { MessageWebhook, RcsContent } from '../../core/store/types.js';
import type { MessageDefinition, SendRequest } from '../../sms/accept/send-request.js';
import type { SmsFailover as StoredSmsFailover } from '../failover.js';
import type { RcsMessageDefinition, RcsSendRequest } from '../read/send-request.js';

/**
 * An RCS request as acceptance takes every request: RCS messages on the shared pipeline (`api`
 * rcs2, `channel` RCS), their content as given, one part each, and what the pipeline acts on later
 * kept with them — the SMS failover, the seen URL, whether every channel's report is wanted.
 */
export function toSendRequest(request: RcsSendRequest): SendRequest {
  const send: SendRequest = { api: 'rcs2', messages: request.messages.map(toDefinition) };
  if (request.bulkId !== undefined) send.bulkId = request.bulkId;
  if (request.speedLimit !== undefined) send.speedLimit = request.speedLimit;
  if (request.sendAt !== undefined) for (const message of send.messages) message.sendAt = request.sendAt;
  if (request.ordering !== undefined) send.ordered = { stopOnFailure: request.ordering.stopOnFailure };
  if (request.tracking !== undefined) {
    for (const message of send.messages) message.extras = { ...message.extras, tracking: request.tracking };
  }
  return send;
}

function toDefinition(message: RcsMessageDefinition): MessageDefinition {
  const { callbackData, ...rest } = message.webhook;
  const webhook: MessageWebhook = { ...rest };
  const definition: MessageDefinition = {
    channel: 'RCS',
    destinations: message.destinations.map((d) => (d.messageId === undefined ? { to: d.to } : { to: d.to, messageId: d.messageId })),
    content: { content: message.content as RcsContent, encoding: 'RCS', messageCount: 1, tooLong: false },
    webhook,
    validityMs: message.validityMs,
  };
  if (message.sender !== undefined) definition.sender = message.sender;
  if (callbackData !== undefined) definition.callbackData = callbackData;
  if (message.platform?.entityId !== undefined) definition.entityId = message.platform.entityId;
  if (message.platform?.applicationId !== undefined) definition.applicationId = message.platform.applicationId;
  if (message.campaignReferenceId !== undefined) definition.campaignReferenceId = message.campaignReferenceId;
  if (message.deliveryWindow !== undefined) definition.deliveryWindow = message.deliveryWindow;
  const failover = message.failover;
  if (failover?.channel === 'SMS') {
    const sms: StoredSmsFailover = { text: failover.text, validityMs: failover.validityMs };
    if (failover.sender !== undefined) sms.sender = failover.sender;
    definition.extras = { smsFailover: sms, ...(failover.regional === undefined ? {} : { smsFailoverRegional: failover.regional }) };
  } else if (failover?.channel === 'MMS') {
    // Kept as given: Switchboard has no MMS channel, so an RCS failure is final (see README).
    definition.extras = { mmsFailover: failover };
  }
  return definition;
}
