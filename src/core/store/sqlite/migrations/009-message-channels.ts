import type { Migration } from './migration.js';

/**
 * A message's channel: RCS messages travel the same pipeline as SMS. Existing rows are SMS. The
 * partial index serves the RCS logs, newest first, without walking an account's SMS.
 */
export const messageChannelsMigration: Migration = {
  version: '009',
  name: 'message-channels',
  sql: `
ALTER TABLE messages ADD COLUMN channel TEXT NOT NULL DEFAULT 'SMS';
CREATE INDEX messages_rcs_account_pk ON messages(account_id, pk) WHERE channel = 'RCS';
`,
};
