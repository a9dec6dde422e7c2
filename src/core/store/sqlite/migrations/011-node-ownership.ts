import type { Migration } from './migration.js';

/**
 * Which node holds a message's work in flight (its claim while `dispatching`, its carrier's pending
 * receipt while `submitted`) and which node holds an outbox item's lease, so that the survivors of
 * a node that stops beating can take that work over at once. No index: a take-over walks the
 * partial indexes the claims already keep, once per dead node.
 */
export const nodeOwnershipMigration: Migration = {
  version: '011',
  name: 'node-ownership',
  sql: `
ALTER TABLE messages ADD COLUMN node_id TEXT;
ALTER TABLE outbox ADD COLUMN node_id TEXT;
`,
};
