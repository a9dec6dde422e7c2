import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openSqliteStore, type SqliteRole } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

export interface OpenStoreOptions {
  /** `postgres://…` / `postgresql://…` selects PostgreSQL; anything else is a SQLite file path. */
  url?: string;
  dataDir: string;
  /** PostgreSQL schema to use (tests isolate themselves this way). */
  schema?: string;
  /** SQLite: what this connection is for (see openSqliteStore); `all` when one connection does everything. */
  role?: SqliteRole;
  /** PostgreSQL: see PostgresStoreOptions.durableCommits (default true) and its pool size. */
  durableCommits?: boolean;
  poolSize?: number;
  /** Hears of store trouble that does not fail a call (SQLite's checkpoint thread, PostgreSQL's refused settings). */
  log?: { warn(details: object, message: string): void };
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** Opens the configured store. Does not migrate: callers call `migrate()`. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.url !== undefined && POSTGRES_URL.test(options.url)) {
    // Loaded on demand so SQLite deployments never load the PostgreSQL client.
    const { openPostgresStore } = await import('./postgres/postgres-store.js');
    return openPostgresStore(options.url, {
      ...(options.schema === undefined ? {} : { schema: options.schema }),
      ...(options.durableCommits === undefined ? {} : { durableCommits: options.durableCommits }),
      ...(options.poolSize === undefined ? {} : { max: options.poolSize }),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
  }
  const path = options.url || join(options.dataDir, 'switchboard.db');
  mkdirSync(dirname(path), { recursive: true });
  return openSqliteStore(path, options.role ?? 'all', options.log);
}
