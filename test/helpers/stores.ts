import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { afterEach, beforeEach } from 'node:test';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/core/store/open-store.js';
import { migrations as postgresMigrations } from '../../src/core/store/postgres/migrations/runner.js';
import { migrations as sqliteMigrations } from '../../src/core/store/sqlite/migrations/index.js';
import { dropSchemas } from './drop-schemas.js';
import { openSqliteStore } from '../../src/core/store/sqlite/sqlite-store.js';
import type {
  Account,
  NewMessage,
  OutboxItemInput,
  ReportData,
  StatusChange,
  Store,
  StoredMessage,
} from '../../src/core/store/types.js';

export interface StoreDriver {
  name: 'sqlite' | 'postgres';
  /** A fresh, migrated, empty store of this driver. */
  open(): Promise<Store>;
  /** Why this driver's variants do not run here; pass it as the suite's `skip` so the run reports them. */
  skip?: string;
}

const openedStores: Store[] = [];
const tempDirs: string[] = [];
const postgresSchemas: string[] = [];

/** A path for a SQLite file in a fresh temp directory that cleanupStores() removes. */
export function tempSqlitePath(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-store-'));
  tempDirs.push(dir);
  return path.join(dir, 'switchboard.db');
}

async function migrated(store: Store): Promise<Store> {
  openedStores.push(store);
  await store.migrate();
  return store;
}

export const POSTGRES_SKIP_REASON = 'TEST_DATABASE_URL is not set';

/**
 * Both drivers; PostgreSQL runs when TEST_DATABASE_URL is set, each open() in its own schema, and
 * is otherwise reported as skipped (a suite given `{ skip: driver.skip }`), never silently left out.
 */
export function storeDrivers(): StoreDriver[] {
  const url = process.env.TEST_DATABASE_URL;
  return [
    { name: 'sqlite', open: () => migrated(openSqliteStore(tempSqlitePath())) },
    {
      name: 'postgres',
      open: async () => {
        if (!url) throw new Error(POSTGRES_SKIP_REASON);
        return migrated(await openStore({ url, dataDir: os.tmpdir(), schema: newPostgresSchema() }));
      },
      ...(url ? {} : { skip: POSTGRES_SKIP_REASON }),
    },
  ];
}

/** A fresh schema name for a PostgreSQL store; cleanupStores() drops it. */
export function newPostgresSchema(): string {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  postgresSchemas.push(schema);
  return schema;
}

/** Closes a store opened here before the suite ends (its PostgreSQL schema is still dropped by cleanupStores). */
export async function closeStore(store: Store): Promise<void> {
  const index = openedStores.indexOf(store);
  if (index >= 0) openedStores.splice(index, 1);
  await store.close();
}

/**
 * Registers beforeEach/afterEach hooks giving every test of the enclosing describe its own empty
 * store (claims and outbox counts are global, so tests must not share one). Returns its getter.
 */
export function storePerTest(driver: StoreDriver): () => Store {
  let current: Store | undefined;
  beforeEach(async () => {
    current = await driver.open();
  });
  afterEach(async () => {
    if (current) await closeStore(current);
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('store used outside a test');
    return current;
  };
}

/** Closes every store opened here and removes its files or schema. For `after()`. */
export async function cleanupStores(): Promise<void> {
  for (const store of openedStores.splice(0)) await store.close();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  const schemas = postgresSchemas.splice(0);
  const url = process.env.TEST_DATABASE_URL;
  if (url) await dropSchemas(url, schemas);
}

// ---- fixtures shared by the contract suites ----

/** An arbitrary fixed instant; tests move time explicitly from here. */
/** The versions a store of `driver` applies when upgraded from just before `first`: the drivers' lists differ from 015 on. */
export function migrationsFrom(driver: Store['driver'], first: string): string[] {
  const versions = (driver === 'postgres' ? postgresMigrations : sqliteMigrations).map((m) => m.version);
  return versions.filter((v) => v >= first);
}

export const T0 = Date.UTC(2025, 0, 1);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export const PENDING = { groupId: 1, id: 26 } as const;
export const DELIVERED = { groupId: 3, id: 5 } as const;
export const UNDELIVERABLE = { groupId: 2, id: 9 } as const;
export const REJECTED = { groupId: 5, id: 52 } as const;

export async function twoAccounts(store: Store): Promise<{ a: Account; b: Account }> {
  const a = await store.accounts.ensure(`acct-a-${randomUUID()}`, T0);
  const b = await store.accounts.ensure(`acct-b-${randomUUID()}`, T0);
  return { a, b };
}

export function newMessage(accountId: string, overrides: Partial<NewMessage> = {}): NewMessage {
  return {
    accountId,
    messageId: randomUUID(),
    bulkId: 'bulk-1',
    api: 'sms3',
    destination: '41793026727',
    content: { text: 'hello' },
    encoding: 'GSM7',
    messageCount: 1,
    webhook: { intermediateReport: false, notify: true },
    createdAt: T0,
    dueAt: T0,
    validUntil: T0 + 48 * HOUR,
    state: 'queued',
    status: PENDING,
    errorId: 0,
    ...overrides,
  };
}

/** Inserts the messages and returns their pks, failing on any duplicate. */
export async function insertAll(store: Store, messages: NewMessage[]): Promise<number[]> {
  const results = await store.messages.insertMany(messages);
  return results.map((result) => {
    if (result === 'duplicate') throw new Error('fixture message unexpectedly duplicate');
    return result;
  });
}

/** The pull report of `message` ending with `status` at `at`, never submitted (so sent at acceptance). */
export function reportFor(message: NewMessage | StoredMessage, at: number, status = DELIVERED): ReportData {
  const report: ReportData = {
    bulkId: message.bulkId,
    messageId: message.messageId,
    to: message.destination,
    sentAt: message.createdAt,
    doneAt: at,
    messageCount: message.messageCount,
    status,
    errorId: 0,
    api: message.api,
  };
  if (message.sender !== undefined) report.sender = message.sender;
  if (message.callbackData !== undefined) report.callbackData = message.callbackData;
  if (message.entityId !== undefined) report.entityId = message.entityId;
  if (message.applicationId !== undefined) report.applicationId = message.applicationId;
  if (message.campaignReferenceId !== undefined) report.campaignReferenceId = message.campaignReferenceId;
  return report;
}

export function webhookItem(accountId: string, overrides: Partial<OutboxItemInput> = {}): OutboxItemInput {
  return {
    accountId,
    url: 'https://hooks.example.com/dlr',
    format: 'sms-dlr',
    payload: { results: [{ messageId: randomUUID() }] },
    createdAt: T0,
    dueAt: T0,
    ...overrides,
  };
}

/** A final DELIVERED change for a stored message, with its pull report. */
export function deliveredChange(message: NewMessage, pk: number, at: number): StatusChange {
  return {
    accountId: message.accountId,
    pk,
    status: DELIVERED,
    errorId: 0,
    final: true,
    at,
    pullReport: true,
  };
}
