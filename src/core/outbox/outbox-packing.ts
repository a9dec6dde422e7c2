import type { OutboxItem, OutboxItemInput, WebhookSecurity } from '../store/types.js';
import { maxItemsPerPost } from './webhook-body.js';

/** An outbox row to insert: payloads of one target, at most one POST's worth. */
export type PackedOutboxRow = Omit<OutboxItem, 'id' | 'attempts' | 'state' | 'lastError'>;

/** Items with equal keys may share a row, and later a POST. */
export function outboxTargetKey(item: {
  accountId: string;
  url: string;
  format: string;
  security?: WebhookSecurity;
  subscriptionId?: string;
}): string {
  const s = item.security;
  const security = s ? [s.type, s.username, s.password, s.secret, s.algorithm] : null;
  return JSON.stringify([item.accountId, item.url, item.format, security, item.subscriptionId ?? null]);
}

/**
 * Packs webhook items into outbox rows: one row per target and due time, split at the POST size,
 * payloads in enqueue order. A status round of 1 000 reports for one URL becomes ten rows.
 */
export function packOutboxItems(items: readonly OutboxItemInput[]): PackedOutboxRow[] {
  const open = new Map<string, { row: PackedOutboxRow; parts: string[] }>();
  const rows: Array<{ row: PackedOutboxRow; parts: string[] }> = [];
  for (const item of items) {
    const key = `${outboxTargetKey(item)}|${item.dueAt}`;
    let entry = open.get(key);
    if (!entry || entry.parts.length >= maxItemsPerPost(item.format)) {
      entry = {
        row: {
          accountId: item.accountId,
          url: item.url,
          format: item.format,
          payloads: '',
          payloadCount: 0,
          security: item.security,
          subscriptionId: item.subscriptionId,
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
  return rows.map(({ row, parts }) => ({ ...row, payloads: `[${parts.join(',')}]`, payloadCount: parts.length }));
}
