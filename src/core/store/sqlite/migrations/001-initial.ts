import type { Migration } from './migration.js';

/**
 * Times are INTEGER epoch milliseconds. Structured values the store never filters on (content,
 * webhook options, extras, report bodies, outbox payloads) are JSON text. Every table that holds
 * account data has account_id first in its indexes, so account-scoped reads stay index-only.
 */
export const initialMigration: Migration = {
  version: '001',
  name: 'initial',
  sql: `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  lookup TEXT NOT NULL,
  hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX api_keys_lookup ON api_keys(lookup);
CREATE INDEX api_keys_account ON api_keys(account_id);

-- AUTOINCREMENT: pks are cursors and must never be reused after a purge.
CREATE TABLE messages (
  pk INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  message_id TEXT NOT NULL,
  bulk_id TEXT NOT NULL,
  api TEXT NOT NULL,
  sender TEXT,
  destination TEXT NOT NULL,
  content TEXT NOT NULL,
  encoding TEXT NOT NULL,
  message_count INTEGER NOT NULL,
  callback_data TEXT,
  entity_id TEXT,
  application_id TEXT,
  campaign_reference_id TEXT,
  webhook TEXT NOT NULL,
  extras TEXT,
  delivery_window TEXT,
  created_at INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  valid_until INTEGER NOT NULL,
  state TEXT NOT NULL,
  status_group_id INTEGER NOT NULL,
  status_id INTEGER NOT NULL,
  error_id INTEGER NOT NULL,
  carrier TEXT,
  carrier_message_id TEXT,
  sent_at INTEGER,
  done_at INTEGER,
  mcc_mnc TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER
);
CREATE UNIQUE INDEX messages_account_message_id ON messages(account_id, message_id);
CREATE INDEX messages_state_due ON messages(state, due_at);
CREATE INDEX messages_carrier_id ON messages(carrier, carrier_message_id) WHERE carrier_message_id IS NOT NULL;
CREATE INDEX messages_account_pk ON messages(account_id, pk);
-- Receipt resumption and expiry walk only submitted rows, which are few next to final ones.
CREATE INDEX messages_submitted_carrier ON messages(carrier, pk) WHERE state = 'submitted';
CREATE INDEX messages_submitted_valid ON messages(valid_until) WHERE state = 'submitted';
-- Lets the retention purge find its rows without scanning, so it holds the write lock briefly.
CREATE INDEX messages_final_done ON messages(coalesce(done_at, created_at)) WHERE state = 'final';

-- Consume-once pull queue of delivery reports; data is the ReportData JSON.
CREATE TABLE reports (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  message_pk INTEGER NOT NULL,
  bulk_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  entity_id TEXT,
  application_id TEXT,
  campaign_reference_id TEXT,
  created_at INTEGER NOT NULL,
  consumed_at INTEGER,
  data TEXT NOT NULL
);
CREATE INDEX reports_pending ON reports(account_id, consumed_at, id);
CREATE INDEX reports_created ON reports(created_at);

CREATE TABLE inbound (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  message_id TEXT NOT NULL,
  from_number TEXT NOT NULL,
  to_number TEXT NOT NULL,
  text TEXT NOT NULL,
  clean_text TEXT NOT NULL,
  keyword TEXT,
  received_at INTEGER NOT NULL,
  sms_count INTEGER NOT NULL,
  callback_data TEXT,
  application_id TEXT,
  entity_id TEXT,
  campaign_reference_id TEXT,
  pullable INTEGER NOT NULL,
  consumed_at INTEGER
);
-- Partial: webhook-only messages are never pending, so they stay out of the pull path.
CREATE INDEX inbound_pending ON inbound(account_id, consumed_at, id) WHERE pullable = 1;
CREATE INDEX inbound_received ON inbound(received_at);

CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  url TEXT NOT NULL,
  format TEXT NOT NULL,
  payload TEXT NOT NULL,
  security TEXT,
  subscription_id TEXT,
  created_at INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL DEFAULT 'pending',
  last_error TEXT,
  lease_until INTEGER
);
CREATE INDEX outbox_state_due ON outbox(state, due_at);
CREATE INDEX outbox_account ON outbox(account_id, id);
CREATE INDEX outbox_settled ON outbox(created_at) WHERE state <> 'pending';

CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  url TEXT NOT NULL,
  item_ids TEXT NOT NULL,
  attempt_no INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  http_status INTEGER,
  error TEXT,
  outcome TEXT NOT NULL
);
CREATE INDEX webhook_attempts_account ON webhook_attempts(account_id, id);
CREATE INDEX webhook_attempts_started ON webhook_attempts(started_at);

CREATE TABLE subscriptions (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  subscription_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  name TEXT,
  events TEXT NOT NULL,
  profile TEXT,
  criteria TEXT,
  resources TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, subscription_id)
);
CREATE INDEX subscriptions_channel ON subscriptions(account_id, channel);

CREATE TABLE phone_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  number TEXT NOT NULL,
  channel TEXT NOT NULL,
  from_number TEXT,
  text TEXT,
  message_id TEXT,
  received_at INTEGER NOT NULL,
  payload TEXT
);
CREATE INDEX phone_messages_number ON phone_messages(account_id, number, received_at, id);
`,
};
