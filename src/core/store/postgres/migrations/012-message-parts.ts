import type { Migration } from './runner.js';

/**
 * The parts of long messages, each with its network id and its receipt (a message's status is
 * derived from them on any node, after any restart), and receipts kept until their message is
 * known. Only long messages whose network gives each part its own id have part rows; a message's
 * row keeps the parts' ids joined by spaces as its carrier id. Long messages still awaiting
 * receipts get their part rows from that carrier id.
 */
export const messageParts: Migration = {
  version: '012',
  name: 'message-parts',
  sql: `
CREATE TABLE message_parts (
  message_pk      bigint  NOT NULL,
  part_number     int     NOT NULL,
  carrier         text    NOT NULL,
  part_id         text    NOT NULL,
  submitted_at    bigint  NOT NULL,
  status_group_id int,
  status_id       int,
  error_id        int,
  final           boolean NOT NULL DEFAULT false,
  receipt_at      bigint,
  PRIMARY KEY (message_pk, part_number)
);
CREATE INDEX message_parts_part_id_idx ON message_parts (carrier, part_id);

CREATE TABLE kept_receipts (
  id                 bigserial PRIMARY KEY,
  carrier            text    NOT NULL,
  carrier_message_id text    NOT NULL,
  status_group_id    int     NOT NULL,
  status_id          int     NOT NULL,
  error_id           int     NOT NULL,
  final              boolean NOT NULL,
  at                 bigint  NOT NULL,
  mcc_mnc            text,
  kept_at            bigint  NOT NULL,
  next_try_at        bigint  NOT NULL
);
CREATE INDEX kept_receipts_next_try_idx ON kept_receipts (next_try_at);

INSERT INTO message_parts (message_pk, part_number, carrier, part_id, submitted_at)
SELECT m.pk, t.n, m.carrier, t.id, coalesce(m.sent_at, m.created_at)
FROM messages m, unnest(string_to_array(m.carrier_message_id, ' ')) WITH ORDINALITY AS t(id, n)
WHERE m.state = 'submitted' AND m.carrier IS NOT NULL AND position(' ' in m.carrier_message_id) > 0;
`,
};
