import type { Migration } from './migration.js';

/**
 * A virtual phone's SMS is the message itself: the status update that delivers it (or the sandbox's
 * submit, with a latency) marks the message as received by the phone, instead of a `phone_messages`
 * row copying it. The partial index serves the phone's list, newest first. Entries already in
 * `phone_messages` stay there and are listed with the rest.
 */
export const phoneSmsOnMessagesMigration: Migration = {
  version: '005',
  name: 'phone-sms-on-messages',
  sql: `
ALTER TABLE messages ADD COLUMN phone_number TEXT;
ALTER TABLE messages ADD COLUMN phone_at INTEGER;
CREATE INDEX messages_phone ON messages(account_id, phone_number, phone_at) WHERE phone_at IS NOT NULL;
`,
};
