import { formatInfobipTime } from '../infobip-time.js';
import type { OutboxItem, WebhookAttempt, WebhookTargetSummary } from '../store/types.js';

/** Wire shapes of our own webhooks API (/switchboard/1/webhooks): items, attempts and targets. Ids are strings. */

export const tags = ['Webhooks'];

export const urlFilterSchema = { type: 'string', minLength: 1, maxLength: 2048, description: 'Only items posted to this URL.' } as const;

export const limitSchema = { type: 'integer', minimum: 1, maximum: 1000, default: 50 } as const;

export const attemptSchema = {
  type: 'object',
  required: ['id', 'url', 'itemCount', 'attempt', 'startedAt', 'durationMs', 'outcome'],
  properties: {
    id: { type: 'string', description: 'Attempt id; pass it as `before` to read older attempts.' },
    url: { type: 'string' },
    itemCount: { type: 'integer', description: 'Reports or messages carried by this POST.' },
    attempt: { type: 'integer', description: '1 for the first POST of these items, 2 for the first retry…' },
    startedAt: { type: 'string', format: 'date-time' },
    durationMs: { type: 'integer' },
    httpStatus: { type: 'integer', description: 'Absent when no HTTP response arrived.' },
    error: { type: 'string', description: 'Network error or timeout, when no HTTP response arrived.' },
    outcome: { type: 'string', enum: ['delivered', 'retry', 'failed'] },
  },
} as const;

export const itemSchema = {
  type: 'object',
  required: ['id', 'url', 'format', 'itemCount', 'attempts', 'state', 'dueAt'],
  properties: {
    id: { type: 'string' },
    url: { type: 'string' },
    itemCount: { type: 'integer', description: 'Reports or messages in this item (up to one POST: 100 reports); they are posted, retried and settled together.' },
    format: { type: 'string', description: '`sms-dlr`/`rcs-dlr` delivery reports, `rcs-seen` seen reports, `sms-mo`/`rcs-mo` inbound messages, `call-event` one call event, …' },
    stream: { type: 'string', description: 'The ordered stream (a call id) of the item: its items are posted one at a time, in order.' },
    attempts: { type: 'integer', description: 'POSTs made so far.' },
    state: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    dueAt: { type: 'string', format: 'date-time', description: 'When the next POST is due (pending items).' },
    lastError: { type: 'string' },
  },
} as const;

export function attemptWire(a: WebhookAttempt): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    id: String(a.id),
    url: a.url,
    itemCount: a.payloadCount,
    attempt: a.attemptNo,
    startedAt: formatInfobipTime(a.startedAt),
    durationMs: a.durationMs,
    outcome: a.outcome,
  };
  if (a.httpStatus !== undefined) wire.httpStatus = a.httpStatus;
  if (a.error !== undefined) wire.error = a.error;
  return wire;
}

export function itemWire(item: OutboxItem): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    id: String(item.id),
    url: item.url,
    itemCount: item.payloadCount,
    format: item.format,
    attempts: item.attempts,
    state: item.state,
    dueAt: formatInfobipTime(item.dueAt),
  };
  if (item.stream !== undefined) wire.stream = item.stream;
  if (item.lastError !== undefined) wire.lastError = item.lastError;
  return wire;
}

export const attemptDetailSchema = {
  ...attemptSchema,
  properties: {
    ...attemptSchema.properties,
    responseBody: { type: 'string', description: "The first 4 KB of the receiver's answer, as text; absent when it was empty." },
    responseContentType: { type: 'string', description: "The answer's Content-Type." },
  },
} as const;

export const itemDetailSchema = {
  ...itemSchema,
  required: [...itemSchema.required, 'requestBody'],
  properties: {
    ...itemSchema.properties,
    requestBody: { type: 'string', description: 'The JSON text that is POSTed for this item alone.' },
  },
} as const;

export const targetSchema = {
  type: 'object',
  required: ['url', 'pending', 'failed', 'delivered'],
  properties: {
    url: { type: 'string' },
    pending: { type: 'integer', description: 'Items waiting to be posted, retries included.' },
    failed: { type: 'integer', description: 'Items given up after their last attempt.' },
    delivered: { type: 'integer' },
    lastAttemptAt: { type: 'string', format: 'date-time' },
    lastOutcome: { type: 'string', enum: ['delivered', 'retry', 'failed'] },
    lastHttpStatus: { type: 'integer' },
    lastError: { type: 'string', description: 'Why the last attempt failed: a network error or timeout, else `HTTP <status>`.' },
  },
} as const;

export function attemptDetailWire(a: WebhookAttempt): Record<string, unknown> {
  const wire = attemptWire(a);
  if (a.responseBody !== undefined) wire.responseBody = a.responseBody;
  if (a.responseContentType !== undefined) wire.responseContentType = a.responseContentType;
  return wire;
}

/** Failing targets first (items given up or being retried), then by their last attempt, newest first. */
export function targetsWire(targets: WebhookTargetSummary[]): Array<Record<string, unknown>> {
  const failing = (t: WebhookTargetSummary): number => (t.failed > 0 || t.retrying > 0 ? 0 : 1);
  const sorted = [...targets].sort(
    (x, y) => failing(x) - failing(y) || (y.lastAttempt?.startedAt ?? -1) - (x.lastAttempt?.startedAt ?? -1) || x.url.localeCompare(y.url),
  );
  return sorted.map((t) => {
    const wire: Record<string, unknown> = { url: t.url, pending: t.pending, failed: t.failed, delivered: t.delivered };
    if (t.lastAttempt) {
      wire.lastAttemptAt = formatInfobipTime(t.lastAttempt.startedAt);
      wire.lastOutcome = t.lastAttempt.outcome;
      if (t.lastAttempt.httpStatus !== undefined) wire.lastHttpStatus = t.lastAttempt.httpStatus;
      // As an item keeps it: the transport error, else the status of a refusal.
      const { error, httpStatus, outcome } = t.lastAttempt;
      if (error !== undefined) wire.lastError = error;
      else if (outcome !== 'delivered' && httpStatus !== undefined) wire.lastError = `HTTP ${httpStatus}`;
    }
    return wire;
  });
}
