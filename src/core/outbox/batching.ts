import type { OutboxItem, WebhookSecurity } from '../store/types.js';
import { maxItemsPerPost } from './webhook-body.js';

/** Items that travel in one POST: same account, URL, body format, security and attempt count. */
export interface WebhookBatch {
  accountId: string;
  url: string;
  format: string;
  security?: WebhookSecurity;
  /** 1-based number of this POST for every item in it. */
  attemptNo: number;
  items: OutboxItem[];
}

function securityKey(security: WebhookSecurity | undefined): string {
  if (!security) return '';
  return JSON.stringify([security.type, security.username, security.password, security.secret, security.algorithm]);
}

/**
 * Groups claimed items into POSTs. The attempt count is part of the key because one attempt record
 * (with one attempt number) covers the whole POST.
 */
export function groupIntoBatches(items: readonly OutboxItem[]): WebhookBatch[] {
  const groups = new Map<string, WebhookBatch>();
  const batches: WebhookBatch[] = [];
  for (const item of items) {
    const key = JSON.stringify([item.accountId, item.url, item.format, securityKey(item.security), item.attempts]);
    let batch = groups.get(key);
    if (!batch || batch.items.length >= maxItemsPerPost(item.format)) {
      batch = {
        accountId: item.accountId,
        url: item.url,
        format: item.format,
        security: item.security,
        attemptNo: item.attempts + 1,
        items: [],
      };
      groups.set(key, batch);
      batches.push(batch);
    }
    batch.items.push(item);
  }
  return batches;
}
