import type { OutboxItem, OutboxStore, WebhookAttempt, WebhookSecurity } from '../types.js';
import { nullToUndefined, parseJson, parseJsonOrUndefined } from './shared.js';
import { omitUndefined } from '../../omit-undefined.js';

/** `outbox` and `webhook_attempts` rows as SQLite returns them, and what they become. */

export interface OutboxRow {
  id: number;
  account_id: string;
  url: string;
  format: string;
  payloads: string;
  payload_count: number;
  security: string | null;
  subscription_id: string | null;
  stream: string | null;
  created_at: number;
  due_at: number;
  attempts: number;
  state: OutboxItem['state'];
  last_error: string | null;
}

export interface AttemptRow {
  id: number;
  account_id: string;
  url: string;
  item_ids: string;
  payload_count: number;
  attempt_no: number;
  started_at: number;
  duration_ms: number;
  http_status: number | null;
  error: string | null;
  outcome: WebhookAttempt['outcome'];
  response_body: string | null;
  response_content_type: string | null;
}

export type NextState = Parameters<OutboxStore['recordAttempt']>[1];

export const toItem = (row: OutboxRow): OutboxItem =>
  omitUndefined({
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    format: row.format,
    payloads: row.payloads,
    payloadCount: row.payload_count,
    security: parseJsonOrUndefined<WebhookSecurity>(row.security),
    subscriptionId: nullToUndefined(row.subscription_id),
    stream: nullToUndefined(row.stream),
    createdAt: row.created_at,
    dueAt: row.due_at,
    attempts: row.attempts,
    state: row.state,
    lastError: nullToUndefined(row.last_error),
  });

export const toAttempt = (row: AttemptRow): WebhookAttempt =>
  omitUndefined({
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    itemIds: parseJson<number[]>(row.item_ids),
    payloadCount: row.payload_count,
    attemptNo: row.attempt_no,
    startedAt: row.started_at,
    durationMs: row.duration_ms,
    httpStatus: nullToUndefined(row.http_status),
    error: nullToUndefined(row.error),
    outcome: row.outcome,
    responseBody: nullToUndefined(row.response_body),
    responseContentType: nullToUndefined(row.response_content_type),
  });

/** What an item remembers of a failed attempt: the transport error, else the HTTP status. */
