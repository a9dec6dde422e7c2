import type { Migration } from './runner.js';

/**
 * A message's channel: RCS messages travel the same pipeline as SMS. Existing rows are SMS (a
 * constant default adds the column without rewriting the table). The partial index serves the RCS
 * logs, newest first, without walking an account's SMS.
 */
export const messageChannels: Migration = {
  version: '009',
  name: 'message-channels',
  sql: `
ALTER TABLE messages ADD COLUMN channel text NOT NULL DEFAULT 'SMS';
CREATE INDEX messages_rcs_account_pk ON messages(account_id, pk) WHERE channel = 'RCS';
`,
};
