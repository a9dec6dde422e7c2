import Database from 'better-sqlite3';
import type { Store } from '../types.js';
import { SqliteAccountStore } from './accounts.js';
import { SqliteApiKeyStore } from './api-keys.js';
import { SqliteInboundStore } from './inbound.js';
import { SqliteMessageStore } from './messages.js';
import { migrations } from './migrations/index.js';
import { runMigrations } from './migrations/runner.js';
import { SqliteOutboxStore } from './outbox.js';
import { SqlitePhoneStore } from './phones.js';
import { SqliteReportStore } from './reports.js';
import { SqliteSubscriptionStore } from './subscriptions.js';

/**
 * Opens (creating if needed) a SQLite database file. Does not migrate; call `migrate()`.
 * The CLI may open the same file while the server runs, hence WAL and a busy timeout; every write
 * transaction is IMMEDIATE so it waits for the lock instead of failing on upgrade.
 */
export function openSqliteStore(path: string, options: { checkpoints?: boolean } = {}): Store {
  const db = new Database(path, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  // A 200 means durable: commits fsync. Callers batch many messages per transaction.
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // Fewer, larger checkpoints: each one fsyncs the database file, and under load the default
  // (every 1 000 pages) checkpoints several times a second on the thread that commits. A
  // connection on the HTTP thread leaves checkpoints to the engine's, so no request waits for one.
  db.pragma(`wal_autocheckpoint = ${options.checkpoints === false ? 0 : 10000}`);
  db.pragma('cache_size = -32000');
  db.pragma('temp_store = MEMORY');

  const outbox = new SqliteOutboxStore(db);
  const reports = new SqliteReportStore(db);

  return {
    driver: 'sqlite',
    migrate: async () => runMigrations(db, migrations),
    close: async () => {
      if (db.open) db.close();
    },
    accounts: new SqliteAccountStore(db),
    keys: new SqliteApiKeyStore(db),
    messages: new SqliteMessageStore(db, reports, outbox),
    reports,
    inbound: new SqliteInboundStore(db, outbox),
    outbox,
    subscriptions: new SqliteSubscriptionStore(db),
    phones: new SqlitePhoneStore(db),
  };
}
