import type { Sql } from '../shared.js';
import { migration as initial } from './001-initial.js';
import { pipelineIndexes } from './002-pipeline-indexes.js';
import { groupedOutbox } from './003-grouped-outbox.js';
import { reportsOnMessages } from './004-reports-on-messages.js';
import { phoneSmsOnMessages } from './005-phone-sms-on-messages.js';
import { outboxStreams } from './006-outbox-streams.js';
import { calls } from './007-calls.js';
import { verify } from './008-verify.js';
import { messageChannels } from './009-message-channels.js';
import { consoleColumns } from './010-console.js';
import { nodeOwnership } from './011-node-ownership.js';
import { messageParts } from './012-message-parts.js';
import { inboundParts } from './013-inbound-parts.js';
import { partIdFirst } from './014-part-id-first.js';
import { messageKeys } from './015-message-keys.js';

export interface Migration {
  /** Sortable version, e.g. '001'. Applied versions are recorded in `schema_migrations`. */
  version: string;
  name: string;
  /** One or more statements, run together inside the migration transaction. */
  sql: string;
}

/** Every migration, oldest first. Append new ones; never edit one that has shipped. */
export const migrations: readonly Migration[] = [
  initial,
  pipelineIndexes,
  groupedOutbox,
  reportsOnMessages,
  phoneSmsOnMessages,
  outboxStreams,
  calls,
  verify,
  messageChannels,
  consoleColumns,
  nodeOwnership,
  messageParts,
  inboundParts,
  partIdFirst,
  messageKeys,
];

/**
 * Applies pending migrations in one transaction. A transaction-scoped advisory lock keyed by the
 * current schema serialises nodes that start together: the first applies, the others wait, then
 * find nothing left to do. Returns the versions applied by this call.
 */
export async function runMigrations(sql: Sql, list: readonly Migration[] = migrations): Promise<string[]> {
  const ordered = [...list].sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext('switchboard.migrate'), hashtext(coalesce(current_schema(), '')))`;
    await tx`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version    text PRIMARY KEY,
        name       text NOT NULL,
        applied_at bigint NOT NULL
      )`;
    const rows = await tx<{ version: string }[]>`SELECT version FROM schema_migrations`;
    const done = new Set(rows.map((r) => r.version));
    const applied: string[] = [];
    for (const m of ordered) {
      if (done.has(m.version)) continue;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, ${m.name}, ${Date.now()})`;
      applied.push(m.version);
    }
    return applied;
  });
}
