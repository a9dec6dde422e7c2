import type { Migration } from './runner.js';

/**
 * The parts of concatenated inbound messages, stored as they arrive (before the SMSC is answered)
 * and joined from here when the last one comes, on whichever node receives it. A set's row is
 * locked while a part is added, so the node adding the last part sees all the others. A set is
 * marked done when its message is stored and kept, parts and all, until it is purged, so that a
 * part the SMSC sends again is known for a repeat.
 */
export const inboundParts: Migration = {
  version: '013',
  name: 'inbound-parts',
  sql: `
CREATE TABLE inbound_part_sets (
  account_id  text   NOT NULL,
  set_key     text   NOT NULL,
  from_number text   NOT NULL,
  to_number   text   NOT NULL,
  total       int    NOT NULL,
  first_at    bigint NOT NULL,
  done_at     bigint,
  PRIMARY KEY (account_id, set_key)
);
CREATE INDEX inbound_part_sets_open_idx ON inbound_part_sets (first_at) WHERE done_at IS NULL;
CREATE INDEX inbound_part_sets_done_idx ON inbound_part_sets (done_at) WHERE done_at IS NOT NULL;

CREATE TABLE inbound_parts (
  account_id  text   NOT NULL,
  set_key     text   NOT NULL,
  seq         int    NOT NULL,
  text        text   NOT NULL,
  received_at bigint NOT NULL,
  PRIMARY KEY (account_id, set_key, seq)
);
`,
};
