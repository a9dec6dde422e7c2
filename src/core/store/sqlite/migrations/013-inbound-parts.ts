import type { Migration } from './migration.js';

/**
 * The parts of concatenated inbound messages, stored as they arrive (before the SMSC is answered)
 * and joined from here when the last one comes, on whichever node receives it. A set is marked
 * done when its message is stored and kept, parts and all, until it is purged, so that a part the
 * SMSC sends again is known for a repeat.
 */
export const inboundPartsMigration: Migration = {
  version: '013',
  name: 'inbound-parts',
  sql: `
CREATE TABLE inbound_part_sets (
  account_id TEXT NOT NULL,
  set_key TEXT NOT NULL,
  from_number TEXT NOT NULL,
  to_number TEXT NOT NULL,
  total INTEGER NOT NULL,
  first_at INTEGER NOT NULL,
  done_at INTEGER,
  PRIMARY KEY (account_id, set_key)
) WITHOUT ROWID;
CREATE INDEX inbound_part_sets_open ON inbound_part_sets(first_at) WHERE done_at IS NULL;
CREATE INDEX inbound_part_sets_done ON inbound_part_sets(done_at) WHERE done_at IS NOT NULL;

CREATE TABLE inbound_parts (
  account_id TEXT NOT NULL,
  set_key TEXT NOT NULL,
  seq INTEGER NOT NULL,
  text TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, set_key, seq)
) WITHOUT ROWID;
`,
};
