import type { Migration } from './migration.js';

/**
 * What the sandbox console shows: a webhook attempt keeps the start of the receiver's answer (its
 * body, cut to 4 KB, and content type); a phone entry says whether the phone received it or sent it
 * (an inbound SMS or RCS reply typed on the phone through the sandbox API), and to whom it went; a
 * PIN remembers the channel it was sent on. Existing rows are received entries and SMS PINs. The
 * indexes list an application's PINs newest first and find the webhook items made during a
 * message's life (one entry per POST's worth of reports, so little to keep up).
 */
export const consoleMigration: Migration = {
  version: '010',
  name: 'console',
  sql: `
ALTER TABLE webhook_attempts ADD COLUMN response_body TEXT;
ALTER TABLE webhook_attempts ADD COLUMN response_content_type TEXT;
ALTER TABLE phone_messages ADD COLUMN direction TEXT NOT NULL DEFAULT 'received';
ALTER TABLE phone_messages ADD COLUMN to_number TEXT;
ALTER TABLE pins ADD COLUMN channel TEXT NOT NULL DEFAULT 'SMS';
CREATE INDEX pins_by_application ON pins(account_id, application_id, created_at);
CREATE INDEX outbox_account_created ON outbox(account_id, created_at);
`,
};
