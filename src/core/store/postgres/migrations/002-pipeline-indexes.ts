import type { Migration } from './runner.js';

/**
 * The pipeline's lookups index only the rows they look for. Every message used to stay in
 * messages_state_due_idx (and, once submitted, in messages_carrier_idx) until purged, and every
 * state change, a non-HOT update, added entries to both; now a message enters the queue index
 * only while queued and the carrier-id index only while submitted (receipts for final messages
 * are ignored anyway). Building the new indexes locks the table for writes while it runs.
 */
export const pipelineIndexes: Migration = {
  version: '002',
  name: 'pipeline-indexes',
  sql: `
DROP INDEX messages_state_due_idx;
CREATE INDEX messages_queued_due_idx ON messages (due_at, pk) WHERE state = 'queued';
DROP INDEX messages_carrier_idx;
CREATE INDEX messages_carrier_idx ON messages (carrier, carrier_message_id) WHERE state = 'submitted';
`,
};
