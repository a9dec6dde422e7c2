import type { OutboxItem, WebhookSecurity } from '../store/types.js';
import { outboxTargetKey } from './outbox-packing.js';
import { maxItemsPerPost } from './webhook-body.js';

/** Items that travel in one POST: same account, URL, body format, security, stream and attempt count. */
export interface WebhookBatch {
  accountId: string;
  url: string;
  format: string;
  security?: WebhookSecurity;
  /** The stream of its one item, when it carries a stream's item. */
  stream?: string;
  /** 1-based number of this POST for every item in it. */
  attemptNo: number;
  items: OutboxItem[];
  /** Reports or messages in the POST, over all its items. */
  payloadCount: number;
}

/**
 * Groups claimed items into POSTs, filling each up to the format's limit without splitting an item.
 * The attempt count is part of the key because one attempt record (with one attempt number) covers
 * the whole POST. A stream's item is posted alone, so its outcome (and retry) is its own.
 */
export function groupIntoBatches(items: readonly OutboxItem[]): WebhookBatch[] {
  const groups = new Map<string, WebhookBatch>();
  const batches: WebhookBatch[] = [];
  for (const item of items) {
    const key = `${outboxTargetKey(item)}|${item.attempts}`;
    let batch = groups.get(key);
    if (!batch || item.stream !== undefined || batch.payloadCount + item.payloadCount > maxItemsPerPost(item.format)) {
      batch = {
        accountId: item.accountId,
        url: item.url,
        format: item.format,
        security: item.security,
        stream: item.stream,
        attemptNo: item.attempts + 1,
        items: [],
        payloadCount: 0,
      };
      groups.set(key, batch);
      batches.push(batch);
    }
    batch.items.push(item);
    batch.payloadCount += item.payloadCount;
  }
  return batches;
}
