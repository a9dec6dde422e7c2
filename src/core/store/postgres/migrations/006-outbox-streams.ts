import type { Migration } from './runner.js';

/**
 * An outbox row may belong to an ordered stream of its account (a call's events): it is claimed
 * only once no earlier row of its stream is pending. The partial index answers that question and
 * holds only the pending rows of streams, so rows without a stream (SMS) add nothing to it. The
 * column has no default, so adding it rewrites nothing.
 */
export const outboxStreams: Migration = {
  version: '006',
  name: 'outbox-streams',
  sql: `
ALTER TABLE outbox ADD COLUMN stream text;
CREATE INDEX outbox_pending_stream_idx ON outbox (account_id, stream, id) WHERE state = 'pending' AND stream IS NOT NULL;
`,
};
