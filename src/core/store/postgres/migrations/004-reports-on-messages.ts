import type { Migration } from './runner.js';

/**
 * A pull report is the message's final status read back, so a flag on the message replaces the
 * `reports` row that copied it: the final status update sets it, with no row and two index entries
 * more per message. The partial index holds pending reports only, in the order they are consumed
 * (done_at is the report's time). Unconsumed reports carry over as flags.
 */
export const reportsOnMessages: Migration = {
  version: '004',
  name: 'reports-on-messages',
  sql: `
ALTER TABLE messages ADD COLUMN report_pending boolean;
UPDATE messages m SET report_pending = true FROM reports r WHERE r.message_pk = m.pk AND r.consumed_at IS NULL;
DROP TABLE reports;
CREATE INDEX messages_report_pending_idx ON messages (account_id, done_at, pk) WHERE report_pending;
`,
};
