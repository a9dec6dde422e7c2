import type { Migration } from './runner.js';

/**
 * Voice: calls configurations; calls, each kept whole as jsonb in `body` beside the columns the API
 * filters and the engine claims on; their durable timers (any node carries a call on at its time);
 * their media timelines; audio files (uploads and fetched URL audio); and the nodes sharing the
 * database, whose heartbeats tell when one died with live calls.
 */
export const calls: Migration = {
  version: '007',
  name: 'calls',
  sql: `
CREATE TABLE calls_configurations (
  account_id text NOT NULL REFERENCES accounts(id),
  id         text NOT NULL,
  name       text,
  created_at bigint NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE TABLE calls (
  pk               bigserial PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts(id),
  call_id          text NOT NULL,
  configuration_id text NOT NULL,
  application_id   text,
  direction        text NOT NULL,
  endpoint_type    text NOT NULL,
  from_id          text NOT NULL,
  to_id            text NOT NULL,
  state            text NOT NULL,
  live             boolean NOT NULL,
  start_time       bigint NOT NULL,
  end_time         bigint,
  node_id          text NOT NULL,
  body             jsonb NOT NULL,
  updated_at       bigint NOT NULL
);
CREATE UNIQUE INDEX calls_call_id_idx ON calls (account_id, call_id);
CREATE INDEX calls_by_start_idx ON calls (account_id, live, start_time);
CREATE INDEX calls_live_by_node_idx ON calls (node_id) WHERE live;
CREATE INDEX calls_ended_idx ON calls (end_time) WHERE end_time IS NOT NULL;
CREATE TABLE call_timers (
  id          bigserial PRIMARY KEY,
  account_id  text NOT NULL,
  call_pk     bigint NOT NULL REFERENCES calls(pk) ON DELETE CASCADE,
  kind        text NOT NULL,
  due_at      bigint NOT NULL,
  data        jsonb,
  lease_until bigint
);
CREATE INDEX call_timers_due_idx ON call_timers (due_at, id);
CREATE INDEX call_timers_call_idx ON call_timers (call_pk);
CREATE TABLE call_timeline (
  id      bigserial PRIMARY KEY,
  call_pk bigint NOT NULL REFERENCES calls(pk) ON DELETE CASCADE,
  at      bigint NOT NULL,
  type    text NOT NULL,
  data    jsonb NOT NULL
);
CREATE INDEX call_timeline_call_idx ON call_timeline (call_pk, id);
CREATE TABLE call_audio (
  account_id  text NOT NULL REFERENCES accounts(id),
  id          text NOT NULL,
  origin      text NOT NULL,
  name        text NOT NULL,
  format      text NOT NULL,
  size        bigint NOT NULL,
  duration_ms bigint NOT NULL,
  bytes       bytea NOT NULL,
  created_at  bigint NOT NULL,
  expires_at  bigint,
  PRIMARY KEY (account_id, id)
);
CREATE INDEX call_audio_by_origin_idx ON call_audio (account_id, origin, created_at);
CREATE INDEX call_audio_expiry_idx ON call_audio (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE nodes (
  id         text PRIMARY KEY,
  started_at bigint NOT NULL,
  beat_at    bigint NOT NULL
);
`,
};
