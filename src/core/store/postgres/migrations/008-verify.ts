import type { Migration } from './runner.js';

/**
 * Two-factor verification: applications and their message templates (kept whole as jsonb beside
 * their keys), PINs (a keyed hash each, with their attempt count, so that a verification is one
 * conditional update), fixed windows of rate limits, and deployment secrets (the PIN hashing key).
 */
export const verify: Migration = {
  version: '008',
  name: 'verify',
  sql: `
CREATE TABLE twofa_applications (
  account_id     text NOT NULL REFERENCES accounts(id),
  application_id text NOT NULL,
  body           jsonb NOT NULL,
  created_at     bigint NOT NULL,
  PRIMARY KEY (account_id, application_id)
);
CREATE TABLE twofa_templates (
  account_id     text NOT NULL REFERENCES accounts(id),
  application_id text NOT NULL,
  message_id     text NOT NULL,
  body           jsonb NOT NULL,
  created_at     bigint NOT NULL,
  PRIMARY KEY (account_id, message_id)
);
CREATE INDEX twofa_templates_by_application_idx ON twofa_templates (account_id, application_id, created_at);
CREATE TABLE pins (
  pin_id              text PRIMARY KEY,
  account_id          text NOT NULL REFERENCES accounts(id),
  application_id      text NOT NULL,
  message_id          text NOT NULL,
  msisdn              text NOT NULL,
  pin_type            text NOT NULL,
  pin_length          integer NOT NULL,
  pin_hash            text NOT NULL,
  created_at          bigint NOT NULL,
  expires_at          bigint NOT NULL,
  max_attempts        integer NOT NULL,
  wrong_attempts      integer NOT NULL DEFAULT 0,
  allow_multiple      boolean NOT NULL,
  verified_at         bigint,
  sent_at             bigint NOT NULL,
  external_message_id text
);
CREATE INDEX pins_by_msisdn_idx ON pins (account_id, application_id, msisdn, created_at);
CREATE INDEX pins_by_age_idx ON pins (created_at);
CREATE TABLE rate_windows (
  key          text NOT NULL,
  window_start bigint NOT NULL,
  count        integer NOT NULL,
  ends_at      bigint NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_windows_by_end_idx ON rate_windows (ends_at);
CREATE TABLE secrets (
  name  text PRIMARY KEY,
  value text NOT NULL
);
`,
};
