import os from 'node:os';
import postgres from 'postgres';
import { openStore } from '../../src/core/store/open-store.js';
import { runMigrations, type Migration } from '../../src/core/store/postgres/migrations/runner.js';
import type { Sql } from '../../src/core/store/postgres/shared.js';
import type { Store } from '../../src/core/store/types.js';
import { newPostgresSchema } from './stores.js';

/**
 * An upgrade on PostgreSQL (TEST_DATABASE_URL): a fresh schema gets the `earlier` migrations and the
 * rows `seed` writes as the code of that time did, then a store opened on it migrates the rest and
 * `check` looks at the result. The schema is dropped afterwards.
 */
export async function upgradePostgres(
  earlier: readonly Migration[],
  seed: (sql: postgres.Sql) => Promise<void>,
  check: (store: Store) => Promise<void>,
): Promise<void> {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = newPostgresSchema();
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE SCHEMA "${schema}"`);
  const before = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: `"${schema}"` } });
  let store: Store | undefined;
  try {
    await runMigrations(before as unknown as Sql, earlier);
    await seed(before);
    store = await openStore({ url, dataDir: os.tmpdir(), schema });
    await check(store);
  } finally {
    await store?.close();
    await before.end();
    await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}
