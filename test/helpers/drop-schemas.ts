import postgres from 'postgres';

/** Removes test schemas from the database at `url`, so that runs against a developer's own database leave nothing behind. */
export async function dropSchemas(url: string, schemas: string[]): Promise<void> {
  if (schemas.length === 0) return;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    for (const schema of schemas) await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await sql.end();
  }
}
