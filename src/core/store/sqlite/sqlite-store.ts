import Database from 'better-sqlite3';
import type { Store } from '../types.js';
import { SqliteAccountStore } from './accounts.js';
import { SqliteApiKeyStore } from './api-keys.js';
import { SqliteAudioStore } from './audio.js';
import { SqliteCallStore } from './calls.js';
import { SqliteCallsConfigurationStore } from './calls-configurations.js';
import { SqliteInboundStore } from './inbound.js';
import { SqliteKeptReceiptStore } from './kept-receipts.js';
import { SqliteMessagePartStore } from './message-parts.js';
import { SqliteMessageStore } from './messages.js';
import { SqliteNodeStore } from './nodes.js';
import { SqlitePinStore } from './pins.js';
import { SqliteRateWindowStore } from './rate-windows.js';
import { SqliteSecretStore } from './secrets.js';
import { SqliteTwoFactorApplicationStore, SqliteTwoFactorTemplateStore } from './twofa.js';
import { migrations } from './migrations/index.js';
import { runMigrations } from './migrations/runner.js';
import { SqliteOutboxStore } from './outbox.js';
import { SqlitePhoneStore } from './phones.js';
import { SqliteReportStore } from './reports.js';
import { SqliteSubscriptionStore } from './subscriptions.js';
import { WalCheckpointer } from './wal-checkpointer.js';
import { closeWalSync, durable, syncWalAfterCommits } from './wal-sync.js';

/**
 * Opens (creating if needed) a SQLite database file. Does not migrate; call `migrate()`.
 * The CLI may open the same file while the server runs, hence WAL and a busy timeout; every write
 * transaction is IMMEDIATE so it waits for the lock instead of failing on upgrade.
 */
/**
 * - `acceptance` (the HTTP thread beside an engine thread): every commit is made durable before the
 *   caller goes on, because a 200 means the message is durable — by an fdatasync of the WAL after
 *   the commit, off the event loop (wal-sync.ts), so requests are parsed and the engine writes while
 *   the disk works. It starts the checkpoint thread (wal-checkpointer.ts) and stops it on close; no
 *   committing connection checkpoints, so no request and no engine round waits for one.
 * - `engine`: commits are not fsynced one by one (synchronous=NORMAL). A process crash loses nothing
 *   (the WAL is in the OS's cache); a power loss can roll back the last pipeline transitions, which
 *   are then done again (a message may be sent or a webhook posted twice, never lost). The next
 *   fsynced commit makes every earlier engine commit durable too, the WAL being one file. What a
 *   network is told is stored — an inbound message, a receipt — waits for a sync of the WAL first
 *   (inbound inserts, flushToDisk), as acceptance does, since the network will not send it again.
 * - `all`: one connection doing both, fsynced.
 */
export type SqliteRole = 'acceptance' | 'engine' | 'all';

/**
 * The checkpoint thread beside an `acceptance` connection: how often it checkpoints, and the WAL
 * size (pages; 16 MB) past which it rewinds the WAL.
 */
const CHECKPOINTS = { intervalMs: 250, restartFrames: 4096 };
/** Pages of WAL between checkpoints where a committing connection runs them itself. */
const AUTOCHECKPOINT_PAGES = 10_000;

export function openSqliteStore(path: string, role: SqliteRole = 'all', log?: { warn(details: object, message: string): void }): Store {
  const db = new Database(path, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  // A 200 means durable: acceptance commits are synced (after the commit, see wal-sync.ts), `all` in it.
  // The engine syncs the same way, but only where it waits for durability (flushToDisk, inbound).
  const deferSync = (role === 'acceptance' || role === 'engine') && !db.memory;
  db.pragma(`synchronous = ${deferSync ? 'NORMAL' : 'FULL'}`);
  if (deferSync) syncWalAfterCommits(db, db.name);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // Beside an engine thread (acceptance + engine), a thread of their own runs the checkpoints
  // (wal-checkpointer.ts), and neither committing connection does. Alone (`all`), fewer, larger
  // checkpoints: each one fsyncs the database file, and under load the default (every 1 000
  // pages) checkpoints several times a second on the thread that commits.
  db.pragma(`wal_autocheckpoint = ${role === 'all' ? AUTOCHECKPOINT_PAGES : 0}`);
  const checkpointer =
    role === 'acceptance' && !db.memory
      ? new WalCheckpointer(db.name, CHECKPOINTS, {
          onError: (message) => log?.warn({ error: message }, 'WAL checkpoint failed'),
          onDeath: (error) => {
            // Without it the WAL would grow for ever: this connection checkpoints instead.
            log?.warn({ err: error }, 'the checkpoint thread died; acceptance commits checkpoint instead');
            if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
          },
        })
      : undefined;
  db.pragma('cache_size = -8000');
  db.pragma('temp_store = MEMORY');

  const outbox = new SqliteOutboxStore(db);
  const reports = new SqliteReportStore(db);
  const phones = new SqlitePhoneStore(db);
  const parts = new SqliteMessagePartStore(db);
  const rateWindows = new SqliteRateWindowStore(db);

  return {
    driver: 'sqlite',
    migrate: async () => runMigrations(db, migrations),
    flushToDisk: () => durable(db),
    close: async () => {
      // Counts not yet written are only counts: a failure to write them does not keep the store open.
      if (db.open) await rateWindows.flush().catch(() => undefined);
      await checkpointer?.stop();
      await closeWalSync(db);
      if (db.open) db.close();
    },
    accounts: new SqliteAccountStore(db),
    keys: new SqliteApiKeyStore(db),
    messages: new SqliteMessageStore(db, outbox, parts),
    parts,
    keptReceipts: new SqliteKeptReceiptStore(db),
    reports,
    inbound: new SqliteInboundStore(db, outbox),
    outbox,
    subscriptions: new SqliteSubscriptionStore(db),
    phones,
    callsConfigurations: new SqliteCallsConfigurationStore(db),
    calls: new SqliteCallStore(db, outbox, phones, role !== 'engine'),
    audio: new SqliteAudioStore(db),
    nodes: new SqliteNodeStore(db),
    twoFactorApplications: new SqliteTwoFactorApplicationStore(db),
    twoFactorTemplates: new SqliteTwoFactorTemplateStore(db),
    pins: new SqlitePinStore(db),
    rateWindows,
    secrets: new SqliteSecretStore(db),
  };
}
