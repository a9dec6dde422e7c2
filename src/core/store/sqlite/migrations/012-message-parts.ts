import type { Migration } from './migration.js';

/**
 * The parts of long messages, each with its network id and its receipt (a message's status is
 * derived from them on any node, after any restart), and receipts kept until their message is
 * known. Only long messages whose network gives each part its own id have part rows; a message's
 * row keeps the parts' ids joined by spaces as its carrier id. Long messages still awaiting
 * receipts get their part rows from that carrier id.
 */
export const messagePartsMigration: Migration = {
  version: '012',
  name: 'message-parts',
  sql: `
CREATE TABLE message_parts (
  message_pk INTEGER NOT NULL,
  part_number INTEGER NOT NULL,
  carrier TEXT NOT NULL,
  part_id TEXT NOT NULL,
  submitted_at INTEGER NOT NULL,
  status_group_id INTEGER,
  status_id INTEGER,
  error_id INTEGER,
  final INTEGER NOT NULL DEFAULT 0,
  receipt_at INTEGER,
  PRIMARY KEY (message_pk, part_number)
) WITHOUT ROWID;
CREATE INDEX message_parts_part_id ON message_parts(carrier, part_id);

CREATE TABLE kept_receipts (
  id INTEGER PRIMARY KEY,
  carrier TEXT NOT NULL,
  carrier_message_id TEXT NOT NULL,
  status_group_id INTEGER NOT NULL,
  status_id INTEGER NOT NULL,
  error_id INTEGER NOT NULL,
  final INTEGER NOT NULL,
  at INTEGER NOT NULL,
  mcc_mnc TEXT,
  kept_at INTEGER NOT NULL,
  next_try_at INTEGER NOT NULL
);
CREATE INDEX kept_receipts_next_try ON kept_receipts(next_try_at);

WITH RECURSIVE split(pk, carrier, at, n, part_id, rest) AS (
  SELECT pk, carrier, coalesce(sent_at, created_at), 0, NULL, carrier_message_id || ' '
  FROM messages WHERE state = 'submitted' AND carrier IS NOT NULL AND instr(carrier_message_id, ' ') > 0
  UNION ALL
  SELECT pk, carrier, at, n + 1, substr(rest, 1, instr(rest, ' ') - 1), substr(rest, instr(rest, ' ') + 1)
  FROM split WHERE rest <> ''
)
INSERT INTO message_parts (message_pk, part_number, carrier, part_id, submitted_at)
SELECT pk, n, carrier, part_id, at FROM split WHERE n > 0;
`,
};
