import type { WebhookAttempt } from './types.js';

/** What an outbox item keeps as its last error after an attempt; null once delivered. */
export function lastErrorOf(attempt: Omit<WebhookAttempt, 'id'>): string | null {
  if (attempt.error !== undefined) return attempt.error;
  if (attempt.outcome !== 'delivered' && attempt.httpStatus !== undefined) return `HTTP ${attempt.httpStatus}`;
  return null;
}
