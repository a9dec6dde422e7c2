import { badRequest, type Violation } from '../../core/errors/api-problem.js';
import type { MessageWebhook } from '../../core/store/types.js';
import type { SendV3Body, SendV3Message } from '../schemas/send-v3.js';
import { nonEmpty, readDeliveryWindow, readHex, readSendAt, readWebhookUrl } from './field-checks.js';
import { prepareBinary, prepareText, type TextInput } from './prepare-content.js';
import { DEFAULT_WEBHOOK, type DestinationInput, type MessageDefinition, type PreparedContent, type SendRequest } from './send-request.js';
import { MAX_VALIDITY_MS, SPEED_LIMIT_UNIT_MS, VALIDITY_UNIT_MS, validityMs } from './timing.js';

/**
 * Turns a schema-valid `POST /sms/3/messages` body into a SendRequest, running the checks the
 * schema cannot express. Throws a 400 listing every violation found.
 */
export function readV3Request(body: SendV3Body, now: number): SendRequest {
  const violations: Violation[] = [];
  const schedule = body.options?.schedule;
  const sendAt = schedule?.sendAt === undefined ? undefined : readSendAt(schedule.sendAt, 'options.schedule.sendAt', now, violations);
  const requestExtras = v3RequestExtras(body.options);
  const messages: MessageDefinition[] = [];
  for (let i = 0; i < body.messages.length; i++) {
    const definition = readMessage(body.messages[i]!, `messages[${i}]`, violations);
    if (definition === undefined) continue;
    if (sendAt !== undefined) definition.sendAt = sendAt;
    const extras = requestExtras === undefined ? definition.extras : { ...requestExtras, ...definition.extras };
    if (extras !== undefined) definition.extras = extras;
    messages.push(definition);
  }
  if (violations.length > 0) throw badRequest(violations);
  const request: SendRequest = { api: 'sms3', messages };
  const bulkId = nonEmpty(schedule?.bulkId);
  if (bulkId !== undefined) request.bulkId = bulkId;
  const limit = schedule?.sendingSpeedLimit;
  if (limit !== undefined) request.speedLimit = { amount: limit.amount, unitMs: SPEED_LIMIT_UNIT_MS[limit.timeUnit ?? 'MINUTE'] };
  return request;
}

function readMessage(message: SendV3Message, path: string, violations: Violation[]): MessageDefinition | undefined {
  const content = readContent(message.content, `${path}.content`, violations);
  const webhook = readWebhook(message.webhooks, `${path}.webhooks`, violations);
  const options = message.options;
  const windowBody = options?.deliveryTimeWindow;
  const deliveryWindow = windowBody === undefined ? undefined : readDeliveryWindow(windowBody, `${path}.options.deliveryTimeWindow`, violations);
  if (content === undefined || webhook === undefined || (windowBody !== undefined && deliveryWindow === undefined)) return undefined;

  const validity = options?.validityPeriod;
  const definition: MessageDefinition = {
    destinations: message.destinations.some((d) => d.messageId === '')
      ? message.destinations.map(withoutEmptyId)
      : message.destinations,
    content,
    webhook,
    validityMs: validity === undefined ? MAX_VALIDITY_MS : validityMs(validity.amount, VALIDITY_UNIT_MS[validity.timeUnit ?? 'MINUTES']),
  };
  if (message.sender !== undefined) definition.sender = message.sender;
  const callbackData = message.webhooks?.callbackData;
  if (callbackData !== undefined) definition.callbackData = callbackData;
  const platform = options?.platform;
  if (platform?.entityId !== undefined) definition.entityId = platform.entityId;
  if (platform?.applicationId !== undefined) definition.applicationId = platform.applicationId;
  if (options?.campaignReferenceId !== undefined) definition.campaignReferenceId = options.campaignReferenceId;
  if (deliveryWindow !== undefined) definition.deliveryWindow = deliveryWindow;
  if (options?.regional !== undefined || options?.flash !== undefined) {
    const extras: Record<string, unknown> = {};
    if (options.regional !== undefined) extras.regional = options.regional;
    if (options.flash !== undefined) extras.flash = options.flash;
    definition.extras = extras;
  }
  return definition;
}

/** An empty caller id cannot name a message: it means "generate one". */
function withoutEmptyId(destination: DestinationInput): DestinationInput {
  if (destination.messageId !== '') return destination;
  const { messageId: _empty, ...rest } = destination;
  return rest;
}

function readContent(content: SendV3Message['content'], path: string, violations: Violation[]): PreparedContent | undefined {
  const hasText = content.text !== undefined;
  const hasHex = content.hex !== undefined;
  if (hasText === hasHex) {
    violations.push({ property: path, violation: 'must contain exactly one of text or hex' });
    return undefined;
  }
  if (hasText) {
    const input: TextInput = { text: content.text! };
    if (content.transliteration !== undefined) input.transliteration = content.transliteration;
    if (content.language !== undefined) input.language = knownLanguageFields(content.language);
    return prepareText(input);
  }
  const bytes = readHex(content.hex!, `${path}.hex`, violations);
  if (bytes === undefined) return undefined;
  return prepareBinary({
    hex: content.hex!,
    bytes,
    ...(content.dataCoding === undefined ? {} : { dataCoding: content.dataCoding }),
    ...(content.esmClass === undefined ? {} : { esmClass: content.esmClass }),
  });
}

/** Only the documented keys are stored with the content the carrier encodes from. */
function knownLanguageFields(language: NonNullable<SendV3Message['content']['language']>): NonNullable<TextInput['language']> {
  const out: NonNullable<TextInput['language']> = {};
  if (language.languageCode !== undefined) out.languageCode = language.languageCode;
  if (language.singleShift !== undefined) out.singleShift = language.singleShift;
  if (language.lockingShift !== undefined) out.lockingShift = language.lockingShift;
  return out;
}

function readWebhook(webhooks: SendV3Message['webhooks'], path: string, violations: Violation[]): MessageWebhook | undefined {
  const delivery = webhooks?.delivery;
  if (delivery === undefined && webhooks?.contentType === undefined) return DEFAULT_WEBHOOK;
  const webhook: MessageWebhook = { intermediateReport: delivery?.intermediateReport ?? false, notify: delivery?.notify ?? true };
  if (delivery?.url !== undefined) {
    const url = readWebhookUrl(delivery.url, `${path}.delivery.url`, violations);
    if (url === undefined) return undefined;
    webhook.url = url;
  }
  if (webhooks?.contentType !== undefined) webhook.contentType = webhooks.contentType;
  return webhook;
}

function v3RequestExtras(options: SendV3Body['options']): Record<string, unknown> | undefined {
  if (options?.tracking === undefined && options?.conversionTracking === undefined) return undefined;
  const extras: Record<string, unknown> = {};
  if (options.tracking !== undefined) extras.urlOptions = options.tracking;
  if (options.conversionTracking !== undefined) extras.conversionTracking = options.conversionTracking;
  return extras;
}
