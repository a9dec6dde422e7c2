import type { Migration } from './migration.js';

/**
 * Two-factor verification: applications and their message templates (kept whole as JSON beside
 * their keys), PINs (a keyed hash each, with their attempt count, so that a verification is one
 * conditional update), fixed windows of rate limits, and deployment secrets (the PIN hashing key).
 */
export const verifyMigration: Migration = {
  version: '008',
  name: 'verify',
  sql: `
CREATE TABLE twofa_applications (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  application_id TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, application_id)
);
CREATE TABLE twofa_templates (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  application_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, message_id)
);
CREATE INDEX twofa_templates_by_application ON twofa_templates(account_id, application_id, created_at);
CREATE TABLE pins (
  pin_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  application_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  msisdn TEXT NOT NULL,
  pin_type TEXT NOT NULL,
  pin_length INTEGER NOT NULL,
  pin_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  max_attempts INTEGER NOT NULL,
  wrong_attempts INTEGER NOT NULL DEFAULT 0,
  allow_multiple INTEGER NOT NULL,
  verified_at INTEGER,
  sent_at INTEGER NOT NULL,
  external_message_id TEXT
);
CREATE INDEX pins_by_msisdn ON pins(account_id, application_id, msisdn, created_at);
CREATE INDEX pins_by_age ON pins(created_at);
CREATE TABLE rate_windows (
  key TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_windows_by_end ON rate_windows(ends_at);
CREATE TABLE secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`,
};
