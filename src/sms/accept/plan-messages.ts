import { newMessageId } from '../../core/ids.js';
import { HELD_UNTIL_RELEASED } from '../../core/pipeline/ordered-messages.js';
import { ERROR, STATUS, type StatusObject } from '../../core/pipeline/statuses.js';
import type { NewMessage } from '../../core/store/types.js';
import { checkDestination } from './destination.js';
import type { DestinationInput, MessageDefinition, SendRequest } from './send-request.js';
import { messageTiming } from './timing.js';

/** One destination's outcome: a response entry and, unless it is a duplicate, the row to store. */
export interface PlannedEntry {
  /** `to` as the caller sent it. */
  to: string;
  messageId: string;
  status: StatusObject;
  messageCount: number;
  /** Absent for duplicate ids: the id already names another message, which is not overwritten. */
  message?: NewMessage;
}

export interface PlanInput {
  accountId: string;
  request: SendRequest;
  bulkId: string;
  now: number;
  /** Caller message ids that already exist in the account. */
  existingIds: ReadonlySet<string>;
}

/**
 * Turns a validated request into one entry per destination, in request order. Problems of a single
 * destination do not fail the request: the entry is rejected (REJECTED group) and, except for
 * duplicates, stored as a final message so it shows in logs. Rejected messages get no delivery
 * report: nothing was sent, and the 200 response already tells the caller.
 */
export function planMessages(input: PlanInput): PlannedEntry[] {
  const { accountId, request, bulkId, now, existingIds } = input;
  const entries: PlannedEntry[] = [];
  const seenIds = new Set<string>();
  let queuedIndex = 0;
  for (const definition of request.messages) {
    for (const destination of definition.destinations) {
      const callerId = destination.messageId;
      if (callerId !== undefined) {
        if (existingIds.has(callerId) || seenIds.has(callerId)) {
          entries.push(duplicateEntry(destination.to, callerId, definition.content.messageCount));
          continue;
        }
        seenIds.add(callerId);
      }
      const messageId = callerId ?? newMessageId();
      const check = checkDestination(destination.to);
      const rejection = !check.ok ? check.reason : definition.content.tooLong ? 'REJECTED_MESSAGE_TOO_LONG' : undefined;
      const message = baseMessage(accountId, bulkId, request.api, messageId, definition, destination, now);
      if (check.ok) message.destination = check.number;
      if (rejection === undefined) {
        const timing = messageTiming({
          now,
          sendAt: definition.sendAt,
          index: queuedIndex++,
          speedLimit: request.speedLimit,
          window: definition.deliveryWindow,
          validityMs: definition.validityMs,
        });
        message.dueAt = timing.dueAt;
        message.validUntil = timing.validUntil;
      } else {
        const status = STATUS[rejection];
        message.state = 'final';
        message.status = { groupId: status.groupId, id: status.id };
        message.errorId = rejection === 'REJECTED_MESSAGE_TOO_LONG' ? ERROR.EC_MSG_TEXT_TOO_LONG.id : ERROR.EC_INVALID_DESTINATION_ADDRESS.id;
      }
      entries.push({
        to: destination.to,
        messageId,
        status: rejection === undefined ? STATUS.PENDING_ACCEPTED : STATUS[rejection],
        messageCount: definition.content.messageCount,
        message,
      });
    }
  }
  if (request.ordered) chainInOrder(entries, request.messages.map((m) => m.destinations.length), request.ordered.stopOnFailure);
  return entries;
}

/**
 * An ordered request (its messages share their destinations): per destination, each message after
 * the first is held, and the one before it names it, so that it goes once that one ended.
 */
function chainInOrder(entries: PlannedEntry[], destinationCounts: number[], stopOnFailure: boolean): void {
  let offset = 0;
  for (let k = 1; k < destinationCounts.length; k++) {
    const previousOffset = offset;
    offset += destinationCounts[k - 1]!;
    for (let j = 0; j < destinationCounts[k]!; j++) {
      const before = entries[previousOffset + j]?.message;
      const message = entries[offset + j]?.message;
      if (before === undefined || message === undefined || message.state !== 'queued') continue;
      message.dueAt = HELD_UNTIL_RELEASED;
      before.extras = { ...before.extras, orderedNext: message.messageId, stopOnFailure };
    }
  }
}

/** The id names another message already: nothing is stored for this destination. */
export function duplicateEntry(to: string, messageId: string, messageCount: number): PlannedEntry {
  return { to, messageId, status: STATUS.REJECTED_DUPLICATE_MESSAGE_ID, messageCount };
}

const ACCEPTED_REF = { groupId: STATUS.PENDING_ACCEPTED.groupId, id: STATUS.PENDING_ACCEPTED.id };

/** The row as an accepted message due now; rejections and timing adjust it. */
function baseMessage(
  accountId: string,
  bulkId: string,
  api: SendRequest['api'],
  messageId: string,
  definition: MessageDefinition,
  destination: DestinationInput,
  now: number,
): NewMessage {
  const message: NewMessage = {
    accountId,
    messageId,
    bulkId,
    api,
    destination: destination.to,
    content: definition.content.content,
    encoding: definition.content.encoding,
    messageCount: definition.content.messageCount,
    webhook: definition.webhook,
    createdAt: now,
    dueAt: now,
    validUntil: now,
    state: 'queued',
    status: ACCEPTED_REF,
    errorId: ERROR.NO_ERROR.id,
  };
  if (definition.channel !== undefined) message.channel = definition.channel;
  if (definition.sender !== undefined) message.sender = definition.sender;
  if (definition.callbackData !== undefined) message.callbackData = definition.callbackData;
  if (definition.entityId !== undefined) message.entityId = definition.entityId;
  if (definition.applicationId !== undefined) message.applicationId = definition.applicationId;
  if (definition.campaignReferenceId !== undefined) message.campaignReferenceId = definition.campaignReferenceId;
  if (definition.deliveryWindow !== undefined) message.deliveryWindow = definition.deliveryWindow;
  const extras = destination.networkId === undefined ? definition.extras : { ...definition.extras, networkId: destination.networkId };
  if (extras !== undefined) message.extras = extras;
  return message;
}
