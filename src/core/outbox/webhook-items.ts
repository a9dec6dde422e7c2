import type { OutboxItemInput } from '../store/types.js';
import type { WebhookTarget } from '../subscriptions/matcher.js';

/** Where one event goes: a message's own URL (no subscription, no security) or a subscription's target. */
export type EventTarget = Pick<WebhookTarget, 'url'> & Partial<WebhookTarget>;

/** One outbox item per target for the same rendered payload, due at once. */
export function webhookItems(accountId: string, targets: readonly EventTarget[], format: string, payload: unknown, now: number): OutboxItemInput[] {
  return targets.map((target) => {
    const item: OutboxItemInput = { accountId, url: target.url, format, payload, createdAt: now, dueAt: now };
    if (target.subscriptionId !== undefined) item.subscriptionId = target.subscriptionId;
    if (target.security) item.security = target.security;
    return item;
  });
}
