import type { Migration } from './migration.js';

/**
 * An outbox row may belong to an ordered stream of its account (a call's events): it is claimed
 * only once no earlier row of its stream is pending. The partial index answers that question and
 * holds only the pending rows of streams, so rows without a stream (SMS) add nothing to it.
 */
export const outboxStreamsMigration: Migration = {
  version: '006',
  name: 'outbox-streams',
  sql: `
ALTER TABLE outbox ADD COLUMN stream TEXT;
CREATE INDEX outbox_pending_stream ON outbox(account_id, stream, id) WHERE state = 'pending' AND stream IS NOT NULL;
`,
};
