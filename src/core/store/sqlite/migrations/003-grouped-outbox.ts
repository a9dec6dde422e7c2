import type { Migration } from './migration.js';

/**
 * An outbox row holds the payloads of one target, up to one POST's worth, as the JSON array text that
 * is posted: claiming, settling and purging work on one row per POST instead of one per report.
 * Rows written before hold one payload each. Attempts count the payloads they carried, since an
 * item is no longer one report. The claim index holds pending rows only.
 */
export const groupedOutboxMigration: Migration = {
  version: '003',
  name: 'grouped-outbox',
  sql: `
ALTER TABLE outbox ADD COLUMN payloads TEXT NOT NULL DEFAULT '[]';
ALTER TABLE outbox ADD COLUMN payload_count INTEGER NOT NULL DEFAULT 1;
UPDATE outbox SET payloads = '[' || payload || ']';
ALTER TABLE outbox DROP COLUMN payload;
ALTER TABLE webhook_attempts ADD COLUMN payload_count INTEGER NOT NULL DEFAULT 0;
UPDATE webhook_attempts SET payload_count = json_array_length(item_ids);
DROP INDEX outbox_state_due;
CREATE INDEX outbox_pending_due ON outbox(due_at) WHERE state = 'pending';
`,
};
