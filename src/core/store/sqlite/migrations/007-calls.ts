import type { Migration } from './migration.js';

/**
 * Voice: calls configurations; calls, each kept whole as JSON in `body` beside the columns the API
 * filters and the engine claims on; their durable timers (any node carries a call on at its time);
 * their media timelines; audio files (uploads and fetched URL audio); and the nodes sharing the
 * store, whose heartbeats tell when one died with live calls.
 */
export const callsMigration: Migration = {
  version: '007',
  name: 'calls',
  sql: `
CREATE TABLE calls_configurations (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  id TEXT NOT NULL,
  name TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE TABLE calls (
  pk INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  call_id TEXT NOT NULL,
  configuration_id TEXT NOT NULL,
  application_id TEXT,
  direction TEXT NOT NULL,
  endpoint_type TEXT NOT NULL,
  from_id TEXT NOT NULL,
  to_id TEXT NOT NULL,
  state TEXT NOT NULL,
  live INTEGER NOT NULL,
  start_time INTEGER NOT NULL,
  end_time INTEGER,
  node_id TEXT NOT NULL,
  body TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX calls_call_id ON calls(account_id, call_id);
CREATE INDEX calls_by_start ON calls(account_id, live, start_time);
CREATE INDEX calls_live_by_node ON calls(node_id) WHERE live = 1;
CREATE INDEX calls_ended ON calls(end_time) WHERE end_time IS NOT NULL;
CREATE TABLE call_timers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  call_pk INTEGER NOT NULL REFERENCES calls(pk) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  due_at INTEGER NOT NULL,
  data TEXT,
  lease_until INTEGER
);
CREATE INDEX call_timers_due ON call_timers(due_at, id);
CREATE INDEX call_timers_call ON call_timers(call_pk);
CREATE TABLE call_timeline (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  call_pk INTEGER NOT NULL REFERENCES calls(pk) ON DELETE CASCADE,
  at INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX call_timeline_call ON call_timeline(call_pk, id);
CREATE TABLE call_audio (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  id TEXT NOT NULL,
  origin TEXT NOT NULL,
  name TEXT NOT NULL,
  format TEXT NOT NULL,
  size INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  PRIMARY KEY (account_id, id)
);
CREATE INDEX call_audio_by_origin ON call_audio(account_id, origin, created_at);
CREATE INDEX call_audio_expiry ON call_audio(expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE nodes (
  id TEXT PRIMARY KEY,
  started_at INTEGER NOT NULL,
  beat_at INTEGER NOT NULL
);
`,
};
