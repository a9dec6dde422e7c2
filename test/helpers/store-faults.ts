import path from 'node:path';
import Database from 'better-sqlite3';
import postgres from 'postgres';

/**
 * Makes the test server's own database refuse inserts into `table` whose `column` equals `value`,
 * through a connection of its own (a trigger): the way a store write fails in production (a
 * constraint, a lost connection), with nothing of the server replaced.
 */
export async function refuseInserts(env: Record<string, string>, table: string, column: string, value: string): Promise<void> {
  const name = `refuse_${table}_${column}`;
  const literal = `'${value.replaceAll("'", "''")}'`;
  if (env.DATABASE_URL?.startsWith('postgres')) {
    const sql = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {}, connection: { search_path: `"${env.DATABASE_SCHEMA}"` } });
    try {
      await sql.unsafe(`CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql`);
      await sql.unsafe(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW WHEN (NEW.${column} = ${literal}) EXECUTE FUNCTION ${name}()`);
    } finally {
      await sql.end();
    }
    return;
  }
  const db = new Database(env.DATABASE_URL || path.join(env.DATA_DIR!, 'switchboard.db'));
  try {
    db.pragma('busy_timeout = 5000');
    db.exec(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} WHEN NEW.${column} = ${literal} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
  } finally {
    db.close();
  }
}
