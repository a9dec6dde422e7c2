import type Database from 'better-sqlite3';
import type { Migration } from './migration.js';

/**
 * Applies pending migrations, each in its own IMMEDIATE transaction that re-reads the applied set,
 * so two processes migrating the same file at once apply every version exactly once.
 */
export function runMigrations(db: Database.Database, migrations: readonly Migration[]): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const isApplied = db.prepare<[string], { version: string }>('SELECT version FROM schema_migrations WHERE version = ?');
  const record = db.prepare<[string, string, number]>(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  const applyOne = db.transaction((migration: Migration): boolean => {
    if (isApplied.get(migration.version)) return false;
    db.exec(migration.sql);
    record.run(migration.version, migration.name, Date.now());
    return true;
  });

  const ordered = [...migrations].sort((a, b) => a.version.localeCompare(b.version));
  const applied: string[] = [];
  for (const migration of ordered) {
    if (applyOne.immediate(migration)) applied.push(migration.version);
  }
  return applied;
}
