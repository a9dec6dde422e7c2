import type { OutboxItem, OutboxItemInput, WebhookSecurity } from '../store/types.js';
import { maxItemsPerPost } from './webhook-body.js';
import { withFields } from '../with-fields.js';

/** An outbox row to insert: payloads of one target, at most one POST's worth. */
export type PackedOutboxRow = Omit<OutboxItem, 'id' | 'attempts' | 'state' | 'lastError'>;

/** Items with equal keys may share a row, and later a POST. */
export function outboxTargetKey(item: {
  accountId: string;
  url: string;
  format: string;
  security?: WebhookSecurity;
  subscriptionId?: string;
  stream?: string;
}): string {
  const s = item.security;
  const security = s ? [s.type, s.username, s.password, s.secret, s.algorithm] : null;
  return JSON.stringify([item.accountId, item.url, item.format, security, item.subscriptionId ?? null, item.stream ?? null]);
}

/**
 * How many payloads one row of this item may hold. A stream's item is a row of its own: the next item
 * of its stream waits for exactly that row to settle, and is retried apart from every other.
 */
export function payloadsPerRow(item: { format: string; stream?: string }): number {
  return item.stream === undefined ? maxItemsPerPost(item.format) : 1;
}

/**
 * Packs webhook items into outbox rows: one row per target and due time, split at the POST size,
 * payloads in enqueue order, rows in the order of their first payload. A status round of 1 000
 * reports for one URL becomes ten rows.
 */
export function packOutboxItems(items: readonly OutboxItemInput[]): PackedOutboxRow[] {
  const open = new Map<string, { row: PackedOutboxRow; parts: string[] }>();
  const rows: Array<{ row: PackedOutboxRow; parts: string[] }> = [];
  for (const item of items) {
    const key = `${outboxTargetKey(item)}|${item.dueAt}`;
    let entry = open.get(key);
    if (!entry || entry.parts.length >= payloadsPerRow(item)) {
      entry = {
        row: {
          accountId: item.accountId,
          url: item.url,
          format: item.format,
          payloads: '',
          payloadCount: 0,
          security: item.security,
          subscriptionId: item.subscriptionId,
          stream: item.stream,
          createdAt: item.createdAt,
          dueAt: item.dueAt,
        },
        parts: [],
      };
      open.set(key, entry);
      rows.push(entry);
    }
    entry.parts.push(JSON.stringify(item.payload ?? null));
    entry.row.createdAt = Math.min(entry.row.createdAt, item.createdAt);
  }
  return rows.map(({ row, parts }) => withFields(row, { payloads: `[${parts.join(',')}]`, payloadCount: parts.length }));
}
