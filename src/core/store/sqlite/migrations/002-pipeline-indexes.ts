import type { Migration } from './migration.js';

/**
 * The pipeline's lookups index only the rows they look for. Every message used to stay in
 * messages_state_due until purged, its entry moved at each state change; now a message is in
 * messages_queued_due only while queued and in messages_dispatching_lease only while claimed (the
 * claim's lapsed-lease branch walks it by lease), and in messages_carrier_id only while submitted
 * (receipts for final messages are ignored anyway).
 */
export const pipelineIndexesMigration: Migration = {
  version: '002',
  name: 'pipeline-indexes',
  sql: `
DROP INDEX messages_state_due;
CREATE INDEX messages_queued_due ON messages(due_at) WHERE state = 'queued';
CREATE INDEX messages_dispatching_lease ON messages(lease_until) WHERE state = 'dispatching';
DROP INDEX messages_carrier_id;
CREATE INDEX messages_carrier_id ON messages(carrier, carrier_message_id) WHERE state = 'submitted';
`,
};
