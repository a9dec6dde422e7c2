import type { Migration } from './runner.js';

/**
 * What the sandbox console shows: a webhook attempt keeps the start of the receiver's answer (its
 * body, cut to 4 KB, and content type); a phone entry says whether the phone received it or sent it
 * (an inbound SMS or RCS reply typed on the phone through the sandbox API), and to whom it went; a
 * PIN remembers the channel it was sent on. Existing rows are received entries and SMS PINs
 * (constant defaults add the columns without rewriting the tables). The indexes list an
 * application's PINs newest first and find the webhook items made during a message's life (one entry
 * per POST's worth of reports, so little to keep up).
 */
export const consoleColumns: Migration = {
  version: '010',
  name: 'console',
  sql: `
ALTER TABLE webhook_attempts ADD COLUMN response_body text, ADD COLUMN response_content_type text;
ALTER TABLE phone_messages ADD COLUMN direction text NOT NULL DEFAULT 'received', ADD COLUMN to_number text;
ALTER TABLE pins ADD COLUMN channel text NOT NULL DEFAULT 'SMS';
CREATE INDEX pins_by_application_idx ON pins (account_id, application_id, created_at);
CREATE INDEX outbox_account_created_idx ON outbox (account_id, created_at);
`,
};
