import type { Migration } from './runner.js';

/**
 * Initial schema. Times are BIGINT epoch milliseconds; structured fields are JSONB. No foreign keys:
 * every query is scoped by account id already, and purges must not cascade through other tables.
 */
export const migration: Migration = {
  version: '001',
  name: 'initial',
  sql: `
CREATE TABLE accounts (
  id         text PRIMARY KEY,
  name       text NOT NULL UNIQUE,
  created_at bigint NOT NULL
);

CREATE TABLE api_keys (
  id         text PRIMARY KEY,
  account_id text NOT NULL,
  name       text NOT NULL,
  lookup     text NOT NULL,
  hash       text NOT NULL,
  created_at bigint NOT NULL,
  revoked_at bigint
);
CREATE INDEX api_keys_lookup_idx ON api_keys (lookup);
CREATE INDEX api_keys_account_idx ON api_keys (account_id) WHERE revoked_at IS NULL;

CREATE TABLE messages (
  pk                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id            text NOT NULL,
  message_id            text NOT NULL,
  bulk_id               text NOT NULL,
  api                   text NOT NULL,
  sender                text,
  destination           text NOT NULL,
  content               jsonb NOT NULL,
  encoding              text NOT NULL,
  message_count         integer NOT NULL,
  callback_data         text,
  entity_id             text,
  application_id        text,
  campaign_reference_id text,
  webhook               jsonb NOT NULL,
  extras                jsonb,
  delivery_window       jsonb,
  created_at            bigint NOT NULL,
  due_at                bigint NOT NULL,
  valid_until           bigint NOT NULL,
  state                 text NOT NULL,
  status_group_id       integer NOT NULL,
  status_id             integer NOT NULL,
  error_id              integer NOT NULL,
  carrier               text,
  carrier_message_id    text,
  sent_at               bigint,
  done_at               bigint,
  mcc_mnc               text,
  attempts              integer NOT NULL DEFAULT 0,
  lease_until           bigint,
  CONSTRAINT messages_account_message_key UNIQUE (account_id, message_id)
);
CREATE INDEX messages_state_due_idx ON messages (state, due_at, pk);
CREATE INDEX messages_lease_idx ON messages (lease_until) WHERE state = 'dispatching';
CREATE INDEX messages_carrier_idx ON messages (carrier, carrier_message_id) WHERE carrier_message_id IS NOT NULL;
CREATE INDEX messages_account_pk_idx ON messages (account_id, pk);
CREATE INDEX messages_submitted_carrier_idx ON messages (carrier, pk) WHERE state = 'submitted';
CREATE INDEX messages_submitted_valid_idx ON messages (valid_until) WHERE state = 'submitted';
CREATE INDEX messages_final_done_idx ON messages ((coalesce(done_at, created_at))) WHERE state = 'final';

CREATE TABLE reports (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id            text NOT NULL,
  message_pk            bigint NOT NULL,
  bulk_id               text NOT NULL,
  message_id            text NOT NULL,
  entity_id             text,
  application_id        text,
  campaign_reference_id text,
  data                  jsonb NOT NULL,
  created_at            bigint NOT NULL,
  consumed_at           bigint
);
CREATE INDEX reports_pending_idx ON reports (account_id, id) WHERE consumed_at IS NULL;
CREATE INDEX reports_consumed_idx ON reports (created_at) WHERE consumed_at IS NOT NULL;

CREATE TABLE inbound (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id            text NOT NULL,
  message_id            text NOT NULL,
  from_number           text NOT NULL,
  to_number             text NOT NULL,
  text                  text NOT NULL,
  clean_text            text NOT NULL,
  keyword               text,
  received_at           bigint NOT NULL,
  sms_count             integer NOT NULL,
  callback_data         text,
  application_id        text,
  entity_id             text,
  campaign_reference_id text,
  pullable              boolean NOT NULL,
  consumed_at           bigint
);
CREATE INDEX inbound_pending_idx ON inbound (account_id, id) WHERE pullable AND consumed_at IS NULL;
CREATE INDEX inbound_received_idx ON inbound (received_at);

CREATE TABLE outbox (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id      text NOT NULL,
  url             text NOT NULL,
  format          text NOT NULL,
  payload         jsonb NOT NULL,
  security        jsonb,
  subscription_id text,
  created_at      bigint NOT NULL,
  due_at          bigint NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  state           text NOT NULL DEFAULT 'pending',
  last_error      text,
  lease_until     bigint
);
CREATE INDEX outbox_state_due_idx ON outbox (state, due_at, id);
CREATE INDEX outbox_account_idx ON outbox (account_id, state, id);
CREATE INDEX outbox_settled_idx ON outbox (created_at) WHERE state <> 'pending';

CREATE TABLE webhook_attempts (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id  text NOT NULL,
  url         text NOT NULL,
  item_ids    bigint[] NOT NULL,
  attempt_no  integer NOT NULL,
  started_at  bigint NOT NULL,
  duration_ms double precision NOT NULL,
  http_status integer,
  error       text,
  outcome     text NOT NULL
);
CREATE INDEX webhook_attempts_account_idx ON webhook_attempts (account_id, id);
CREATE INDEX webhook_attempts_started_idx ON webhook_attempts (started_at);

CREATE TABLE subscriptions (
  account_id      text NOT NULL,
  subscription_id text NOT NULL,
  channel         text NOT NULL,
  name            text,
  events          jsonb NOT NULL,
  profile         jsonb,
  criteria        jsonb,
  resources       jsonb,
  created_at      bigint NOT NULL,
  updated_at      bigint NOT NULL,
  PRIMARY KEY (account_id, subscription_id)
);

CREATE TABLE phone_messages (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id  text NOT NULL,
  number      text NOT NULL,
  channel     text NOT NULL,
  from_number text,
  text        text,
  message_id  text,
  received_at bigint NOT NULL,
  payload     jsonb
);
CREATE INDEX phone_messages_number_idx ON phone_messages (account_id, number, received_at, id);
`,
};
