import type { Migration } from './runner.js';

/**
 * An outbox row holds the payloads of one target, up to one POST's worth, as the JSON array text that
 * is posted: claiming and settling rewrite one row per POST instead of one per report, and sending
 * neither parses nor re-serializes payloads. Rows written before hold one payload each. Attempts
 * count the payloads they carried, since an item is no longer one report. The claim index holds
 * pending rows only.
 */
export const groupedOutbox: Migration = {
  version: '003',
  name: 'grouped-outbox',
  sql: `
ALTER TABLE outbox ADD COLUMN payloads text, ADD COLUMN payload_count integer NOT NULL DEFAULT 1;
UPDATE outbox SET payloads = jsonb_build_array(payload)::text;
ALTER TABLE outbox ALTER COLUMN payloads SET NOT NULL, DROP COLUMN payload;
ALTER TABLE webhook_attempts ADD COLUMN payload_count integer;
UPDATE webhook_attempts SET payload_count = cardinality(item_ids);
ALTER TABLE webhook_attempts ALTER COLUMN payload_count SET NOT NULL;
DROP INDEX outbox_state_due_idx;
CREATE INDEX outbox_pending_due_idx ON outbox (due_at, id) WHERE state = 'pending';
`,
};
