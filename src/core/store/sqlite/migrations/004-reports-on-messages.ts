import type { Migration } from './migration.js';

/**
 * A pull report is the message's final status read back, so a flag on the message replaces the
 * `reports` row that copied it: the final status update sets it, with no row and two index entries
 * more per message. The partial index holds pending reports only, in the order they are consumed
 * (done_at is the report's time). Unconsumed reports carry over as flags.
 */
export const reportsOnMessagesMigration: Migration = {
  version: '004',
  name: 'reports-on-messages',
  sql: `
ALTER TABLE messages ADD COLUMN report_pending INTEGER;
UPDATE messages SET report_pending = 1 WHERE pk IN (SELECT message_pk FROM reports WHERE consumed_at IS NULL);
DROP TABLE reports;
CREATE INDEX messages_report_pending ON messages(account_id, done_at, pk) WHERE report_pending = 1;
`,
};
