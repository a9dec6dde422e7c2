import type Database from 'better-sqlite3';
import { durable } from './wal-sync.js';

export type Db = Database.Database;

/**
 * Builds a sub-store's prepared statements on first use and keeps them. Opening a store does not
 * migrate, so statements cannot be prepared before the tables exist.
 */
export function preparedOnce<T>(build: () => T): () => T {
  let statements: T | undefined;
  return () => (statements ??= build());
}

/** SQLite cannot bind undefined or booleans. */
export const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
export const flag = (value: boolean): 0 | 1 => (value ? 1 : 0);

export const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** Parses JSON this driver wrote itself from a value of type T. */
export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

export function parseJsonOrUndefined<T>(text: string | null): T | undefined {
  return text === null ? undefined : parseJson<T>(text);
}

export const nullToUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

export const rowId = (result: Database.RunResult): number => Number(result.lastInsertRowid);

const BUSY_TIMEOUT_MS = 5000;

/**
 * Runs a write transaction without letting SQLite sleep on a busy lock. SQLite's own busy handler
 * sleeps the calling thread in millisecond steps, which on the HTTP thread would stall every
 * request while another connection (the engine thread) commits; here a busy lock is retried after
 * yielding to the event loop instead, until the usual busy timeout has passed.
 *
 * Resolves once the commit is on disk, unless `waitForDisk` is false: for writes that a later
 * durable commit covers (the WAL is one file, synced in order) or whose loss in a power cut costs
 * little (a rate window's last counts). A process crash loses neither: the WAL is in the OS's cache.
 */
export async function withoutBlockingOnLocks<T>(db: Db, write: () => T, waitForDisk = true): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 0; ; attempt++) {
    const outcome = tryWrite(db, write, deadline);
    if (outcome.done) {
      // The lock is released by now: waiting for the disk (connections that defer their syncs)
      // holds up no other writer.
      if (waitForDisk) await durable(db);
      return outcome.value;
    }
    // The engine holds the lock briefly (a claim of a few dozen rows, one commit), so the first
    // retries come as soon as pending I/O has been served; a longer hold backs off to a millisecond.
    await new Promise((resolve) => (attempt < 50 ? setImmediate(resolve) : setTimeout(resolve, 1)));
  }
}

/** Prepared once per connection: `db.pragma()` prepares its statement on every call, twice per write here. */
const busyTimeouts = new WeakMap<Db, { off: Database.Statement; on: Database.Statement }>();

function busyTimeoutStatements(db: Db): { off: Database.Statement; on: Database.Statement } {
  let statements = busyTimeouts.get(db);
  if (!statements) {
    statements = { off: db.prepare('PRAGMA busy_timeout = 0'), on: db.prepare(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`) };
    busyTimeouts.set(db, statements);
  }
  return statements;
}

function tryWrite<T>(db: Db, write: () => T, deadline: number): { done: true; value: T } | { done: false } {
  const busyTimeout = busyTimeoutStatements(db);
  busyTimeout.off.get();
  try {
    return { done: true, value: write() };
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
    return { done: false };
  } finally {
    busyTimeout.on.get();
  }
}
