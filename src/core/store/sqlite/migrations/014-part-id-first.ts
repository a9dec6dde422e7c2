import type { Migration } from './migration.js';

/**
 * Receipts find their parts by part id first, as on PostgreSQL (where an index led by the carrier
 * let the planner read every part of the carrier): the two drivers keep one schema.
 */
export const partIdFirstMigration: Migration = {
  version: '014',
  name: 'part-id-first',
  sql: `
DROP INDEX message_parts_part_id;
CREATE INDEX message_parts_part_id ON message_parts(part_id, carrier);
`,
};
