import { badRequest, type Violation } from '../../core/errors/api-problem.js';
import { nonEmpty, readDeliveryWindow, readSendAt, readWebhookUrl } from '../../sms/accept/field-checks.js';
import { SPEED_LIMIT_UNIT_MS } from '../../sms/accept/timing.js';
import type { RcsDestinationBody, RcsMessageBody, RcsSendBody, RcsWebhooksBody } from '../schemas/send.js';
import { checkContent } from './content.js';
import { readFailover, readValidity } from './failover.js';
import { readOrdering } from './ordering.js';
import type { RcsDestination, RcsMessageDefinition, RcsSendRequest, RcsWebhook } from './send-request.js';

/**
 * Turns a schema-valid `POST /rcs/2/messages` body into an RcsSendRequest, running the checks the
 * schema cannot express. `now` is acceptance time (the caller's clock): scheduled sends and
 * calendar events are judged against it. Throws a 400 listing every violation found.
 */
export function readRcsSendRequest(body: RcsSendBody, now: number): RcsSendRequest {
  const violations: Violation[] = [];
  const messages: RcsMessageDefinition[] = [];
  body.messages.forEach((message, i) => {
    const definition = readMessage(message, `messages[${i}]`, now, violations);
    if (definition !== undefined) messages.push(definition);
  });
  const ordering = readOrdering(body, violations);
  const schedule = body.options?.schedule;
  const sendAt = schedule?.sendAt === undefined ? undefined : readSendAt(schedule.sendAt, 'options.schedule.sendAt', now, violations);
  if (violations.length > 0) throw badRequest(violations);

  const request: RcsSendRequest = { messages };
  const bulkId = nonEmpty(schedule?.bulkId);
  if (bulkId !== undefined) request.bulkId = bulkId;
  const limit = schedule?.sendingSpeedLimit;
  if (limit !== undefined) request.speedLimit = { amount: limit.amount, unitMs: SPEED_LIMIT_UNIT_MS[limit.timeUnit ?? 'MINUTE'] };
  if (sendAt !== undefined) request.sendAt = sendAt;
  // As SMS v3 does, tracking is kept as given: nothing is pushed to its trackingUrl, so it is not checked as a webhook.
  if (body.options?.tracking !== undefined) request.tracking = body.options.tracking;
  if (ordering !== undefined) request.ordering = ordering;
  return request;
}

function readMessage(message: RcsMessageBody, path: string, now: number, out: Violation[]): RcsMessageDefinition | undefined {
  const before = out.length;
  checkContent(message.content, `${path}.content`, now, out);
  const options = message.options;
  const windowBody = options?.deliveryTimeWindow;
  const deliveryWindow = windowBody === undefined ? undefined : readDeliveryWindow(windowBody, `${path}.options.deliveryTimeWindow`, out);
  const failover = readFailover(options, `${path}.options`, out);
  const webhook = readWebhook(message.webhooks, `${path}.webhooks`, out);
  if (out.length > before || webhook === undefined) return undefined;

  const definition: RcsMessageDefinition = {
    destinations: message.destinations.map(readDestination),
    content: message.content,
    validityMs: readValidity(options?.validityPeriod),
    webhook,
  };
  if (message.sender !== undefined) definition.sender = message.sender;
  if (deliveryWindow !== undefined) definition.deliveryWindow = deliveryWindow;
  if (options?.campaignReferenceId !== undefined) definition.campaignReferenceId = options.campaignReferenceId;
  const platform = options?.platform;
  if (platform?.entityId !== undefined || platform?.applicationId !== undefined) {
    definition.platform = {};
    if (platform.entityId !== undefined) definition.platform.entityId = platform.entityId;
    if (platform.applicationId !== undefined) definition.platform.applicationId = platform.applicationId;
  }
  if (failover !== undefined) definition.failover = failover;
  return definition;
}

/** Only the documented keys; an empty caller id means "generate one". */
function readDestination(destination: RcsDestinationBody): RcsDestination {
  const messageId = nonEmpty(destination.messageId);
  return messageId === undefined ? { to: destination.to } : { to: destination.to, messageId };
}

function readWebhook(webhooks: RcsWebhooksBody | undefined, path: string, out: Violation[]): RcsWebhook | undefined {
  const delivery = webhooks?.delivery;
  const webhook: RcsWebhook = {
    intermediateReport: delivery?.intermediateReport ?? false,
    notify: delivery?.notify ?? true,
    receiveTriggeredFailoverReports: delivery?.receiveTriggeredFailoverReports ?? false,
  };
  let valid = true;
  if (delivery?.url !== undefined) {
    const url = readWebhookUrl(delivery.url, `${path}.delivery.url`, out);
    if (url === undefined) valid = false;
    else webhook.url = url;
  }
  const seenUrl = webhooks?.seen?.url;
  if (seenUrl !== undefined) {
    const url = readWebhookUrl(seenUrl, `${path}.seen.url`, out);
    if (url === undefined) valid = false;
    else webhook.seenUrl = url;
  }
  if (webhooks?.contentType !== undefined) webhook.contentType = webhooks.contentType;
  if (webhooks?.callbackData !== undefined) webhook.callbackData = webhooks.callbackData;
  return valid ? webhook : undefined;
}
