import { badRequest, type Violation } from '../../core/errors/api-problem.js';
import type { MessageWebhook } from '../../core/store/types.js';
import {
  LEGACY_MESSAGE_ID_MAX,
  type LegacyBodyBase,
  type LegacyMessageBase,
  type LegacyTextMessage,
  type SendLegacyBinaryBody,
  type SendLegacyTextBody,
} from '../schemas/send-legacy.js';
import { nonEmpty, readDeliveryWindow, readHex, readSendAt, readWebhookUrl } from './field-checks.js';
import { prepareBinary, prepareText, type TextInput } from './prepare-content.js';
import { DEFAULT_WEBHOOK, type DestinationInput, type MessageDefinition, type PreparedContent, type SendRequest } from './send-request.js';
import { MAX_VALIDITY_MS, SPEED_LIMIT_UNIT_MS, VALIDITY_UNIT_MS, validityMs } from './timing.js';
import { withFields } from '../../core/with-fields.js';

/** `POST /sms/2/text/advanced` body → SendRequest; throws a 400 listing every violation. */
export function readLegacyTextRequest(body: SendLegacyTextBody, now: number): SendRequest {
  let requestExtras: Record<string, unknown> | undefined;
  if (body.urlOptions !== undefined || body.tracking !== undefined) {
    requestExtras = {};
    if (body.urlOptions !== undefined) requestExtras.urlOptions = body.urlOptions;
    if (body.tracking !== undefined) requestExtras.tracking = body.tracking;
  }
  return readLegacy(body, body.messages, now, requestExtras, (message) => prepareText(textInput(message)));
}

/** `POST /sms/2/binary/advanced` body → SendRequest; throws a 400 listing every violation. */
export function readLegacyBinaryRequest(body: SendLegacyBinaryBody, now: number): SendRequest {
  return readLegacy(body, body.messages, now, undefined, (message, path, violations) => {
    const binary = message.binary;
    const bytes = readHex(binary.hex, `${path}.binary.hex`, violations);
    if (bytes === undefined) return undefined;
    return prepareBinary({
      hex: binary.hex,
      bytes,
      ...(binary.dataCoding === undefined ? {} : { dataCoding: binary.dataCoding }),
      ...(binary.esmClass === undefined ? {} : { esmClass: binary.esmClass }),
    });
  });
}

/**
 * A legacy `languageCode` carries no shift flags; like the preview endpoint, it is read as
 * permission to use that language's single shift table. Missing text is an empty message.
 */
function textInput(message: LegacyTextMessage): TextInput {
  const input: TextInput = { text: message.text ?? '' };
  if (message.transliteration !== undefined) input.transliteration = message.transliteration;
  const languageCode = message.language?.languageCode;
  if (languageCode !== undefined && languageCode !== 'NONE') input.language = { languageCode, singleShift: true };
  return input;
}

function readLegacy<M extends LegacyMessageBase>(
  body: LegacyBodyBase,
  bodyMessages: M[],
  now: number,
  requestExtras: Record<string, unknown> | undefined,
  readContent: (message: M, path: string, violations: Violation[]) => PreparedContent | undefined,
): SendRequest {
  const violations: Violation[] = [];
  const messages: MessageDefinition[] = [];
  for (let i = 0; i < bodyMessages.length; i++) {
    const path = `messages[${i}]`;
    const message = bodyMessages[i]!;
    const content = readContent(message, path, violations);
    const definition = readMessage(message, path, now, violations);
    if (content === undefined || definition === undefined) continue;
    const extras = requestExtras === undefined ? definition.extras : { ...requestExtras, ...definition.extras };
    messages.push(withFields(definition, extras === undefined ? { content } : { content, extras }));
  }
  if (violations.length > 0) throw badRequest(violations);
  const request: SendRequest = { api: 'sms2', messages };
  const bulkId = nonEmpty(body.bulkId);
  if (bulkId !== undefined) request.bulkId = bulkId;
  const limit = body.sendingSpeedLimit;
  if (limit !== undefined) request.speedLimit = { amount: limit.amount, unitMs: SPEED_LIMIT_UNIT_MS[limit.timeUnit ?? 'MINUTE'] };
  return request;
}

type DefinitionWithoutContent = Omit<MessageDefinition, 'content'>;

function readMessage(message: LegacyMessageBase, path: string, now: number, violations: Violation[]): DefinitionWithoutContent | undefined {
  const before = violations.length;
  const sendAt = message.sendAt === undefined ? undefined : readSendAt(message.sendAt, `${path}.sendAt`, now, violations);
  const windowBody = message.deliveryTimeWindow;
  const deliveryWindow = windowBody === undefined ? undefined : readDeliveryWindow(windowBody, `${path}.deliveryTimeWindow`, violations);
  const webhook = readWebhook(message, path, violations);
  if (violations.length > before || webhook === undefined) return undefined;

  const definition: DefinitionWithoutContent = {
    destinations: message.destinations.map(legacyDestination),
    webhook,
    validityMs: message.validityPeriod === undefined ? MAX_VALIDITY_MS : validityMs(message.validityPeriod, VALIDITY_UNIT_MS.MINUTES),
  };
  if (message.from !== undefined) definition.sender = message.from;
  if (message.callbackData !== undefined) definition.callbackData = message.callbackData;
  if (message.entityId !== undefined) definition.entityId = message.entityId;
  if (message.applicationId !== undefined) definition.applicationId = message.applicationId;
  if (message.campaignReferenceId !== undefined) definition.campaignReferenceId = message.campaignReferenceId;
  if (deliveryWindow !== undefined) definition.deliveryWindow = deliveryWindow;
  if (sendAt !== undefined) definition.sendAt = sendAt;
  if (message.regional !== undefined || message.flash !== undefined) {
    const extras: Record<string, unknown> = {};
    if (message.regional !== undefined) extras.regional = message.regional;
    if (message.flash !== undefined) extras.flash = message.flash;
    definition.extras = extras;
  }
  return definition;
}

/** Legacy ids over 200 characters are clipped (as Infobip documents); an empty id means none. */
function legacyDestination(destination: { to: string; messageId?: string }): DestinationInput {
  const messageId = nonEmpty(destination.messageId);
  if (messageId === undefined) return { to: destination.to };
  return { to: destination.to, messageId: messageId.length > LEGACY_MESSAGE_ID_MAX ? messageId.slice(0, LEGACY_MESSAGE_ID_MAX) : messageId };
}

function readWebhook(message: LegacyMessageBase, path: string, violations: Violation[]): MessageWebhook | undefined {
  if (message.notifyUrl === undefined && message.intermediateReport === undefined && message.notifyContentType === undefined) {
    return DEFAULT_WEBHOOK;
  }
  const webhook: MessageWebhook = { intermediateReport: message.intermediateReport ?? false, notify: true };
  if (message.notifyUrl !== undefined) {
    const url = readWebhookUrl(message.notifyUrl, `${path}.notifyUrl`, violations);
    if (url === undefined) return undefined;
    webhook.url = url;
  }
  if (message.notifyContentType !== undefined) webhook.contentType = message.notifyContentType;
  return webhook;
}
