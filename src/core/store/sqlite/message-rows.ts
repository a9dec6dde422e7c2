import type {
  ApiFamily,
  ClaimedMessage,
  DeliveryWindow,
  MessageChannel,
  MessageContent,
  MessageState,
  MessageWebhook,
  NewMessage,
  StoredMessage,
} from '../types.js';
import { jsonOrNull, nullToUndefined, orNull, parseJson, parseJsonOrUndefined } from './shared.js';
import { withFields } from '../../with-fields.js';
import { omitUndefined } from '../../omit-undefined.js';

/** A `messages` row as SQLite returns it. */
export interface MessageRow {
  pk: number;
  account_id: string;
  message_id: string;
  bulk_id: string;
  api: ApiFamily;
  channel: MessageChannel;
  sender: string | null;
  destination: string;
  content: string;
  encoding: NewMessage['encoding'];
  message_count: number;
  callback_data: string | null;
  entity_id: string | null;
  application_id: string | null;
  campaign_reference_id: string | null;
  webhook: string;
  extras: string | null;
  delivery_window: string | null;
  created_at: number;
  due_at: number;
  valid_until: number;
  state: MessageState;
  status_group_id: number;
  status_id: number;
  error_id: number;
  carrier: string | null;
  carrier_message_id: string | null;
  sent_at: number | null;
  done_at: number | null;
  mcc_mnc: string | null;
  attempts: number;
  lease_until: number | null;
  /** 1 while the final status waits to be pulled as a report (GET …/reports). */
  report_pending: 1 | null;
  /** Set once the destination's virtual phone received the message (sandbox). */
  phone_number: string | null;
  phone_at: number | null;
}

// Positional parameters: binding by name looks each one up on an object, which measured a third
// slower per row here, and this insert runs for every accepted message.
export const MESSAGE_INSERT_SQL = `INSERT INTO messages (account_id, message_id, bulk_id, api, sender, destination,
    content, encoding, message_count, callback_data, entity_id, application_id, campaign_reference_id, webhook,
    extras, delivery_window, created_at, due_at, valid_until, state, status_group_id, status_id, error_id,
    attempts, lease_until, channel, node_id)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (account_id, message_id) DO NOTHING`;

/** MESSAGE_INSERT_SQL's parameters, in its column order. */
export type MessageInsertParams = [
  accountId: string,
  messageId: string,
  bulkId: string,
  api: ApiFamily,
  sender: string | null,
  destination: string,
  content: string,
  encoding: NewMessage['encoding'],
  messageCount: number,
  callbackData: string | null,
  entityId: string | null,
  applicationId: string | null,
  campaignReferenceId: string | null,
  webhook: string,
  extras: string | null,
  deliveryWindow: string | null,
  createdAt: number,
  dueAt: number,
  validUntil: number,
  state: MessageState,
  statusGroupId: number,
  statusId: number,
  errorId: number,
  attempts: number,
  leaseUntil: number | null,
  channel: MessageChannel,
  nodeId: string | null,
];

export function toInsertParams(message: NewMessage): MessageInsertParams {
  const claimed = message.state === 'dispatching';
  return [
    message.accountId,
    message.messageId,
    message.bulkId,
    message.api,
    orNull(message.sender),
    message.destination,
    JSON.stringify(message.content),
    message.encoding,
    message.messageCount,
    orNull(message.callbackData),
    orNull(message.entityId),
    orNull(message.applicationId),
    orNull(message.campaignReferenceId),
    JSON.stringify(message.webhook),
    jsonOrNull(message.extras),
    jsonOrNull(message.deliveryWindow),
    message.createdAt,
    message.dueAt,
    message.validUntil,
    message.state,
    message.status.groupId,
    message.status.id,
    message.errorId,
    claimed ? 1 : 0,
    claimed ? orNull(message.leaseUntil) : null,
    message.channel ?? 'SMS',
    claimed ? orNull(message.nodeId) : null,
  ];
}

export function toStoredMessage(row: MessageRow): StoredMessage {
  return omitUndefined({
    pk: row.pk,
    accountId: row.account_id,
    messageId: row.message_id,
    bulkId: row.bulk_id,
    api: row.api,
    channel: row.channel === 'SMS' ? undefined : row.channel,
    sender: nullToUndefined(row.sender),
    destination: row.destination,
    content: parseJson<MessageContent>(row.content),
    encoding: row.encoding,
    messageCount: row.message_count,
    callbackData: nullToUndefined(row.callback_data),
    entityId: nullToUndefined(row.entity_id),
    applicationId: nullToUndefined(row.application_id),
    campaignReferenceId: nullToUndefined(row.campaign_reference_id),
    webhook: parseJson<MessageWebhook>(row.webhook),
    extras: parseJsonOrUndefined<Record<string, unknown>>(row.extras),
    deliveryWindow: parseJsonOrUndefined<DeliveryWindow>(row.delivery_window),
    createdAt: row.created_at,
    dueAt: row.due_at,
    validUntil: row.valid_until,
    state: row.state,
    status: { groupId: row.status_group_id, id: row.status_id },
    errorId: row.error_id,
    carrier: nullToUndefined(row.carrier),
    carrierMessageId: nullToUndefined(row.carrier_message_id),
    sentAt: nullToUndefined(row.sent_at),
    doneAt: nullToUndefined(row.done_at),
    mccMnc: nullToUndefined(row.mcc_mnc),
    attempts: row.attempts,
  });
}

export function toClaimedMessage(row: MessageRow): ClaimedMessage {
  if (row.lease_until === null) throw new Error(`claimed message ${row.pk} has no lease`);
  return withFields(toStoredMessage(row), { leaseUntil: row.lease_until });
}
