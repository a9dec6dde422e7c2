import { createHash } from 'node:crypto';
import postgres from 'postgres';
import type { Store, StoreSignals } from '../types.js';
import { PgAccountStore } from './accounts.js';
import { PgApiKeyStore } from './api-keys.js';
import { PgAudioStore } from './audio.js';
import { PgCallStore } from './calls.js';
import { PgCallsConfigurationStore } from './calls-configurations.js';
import { PgInboundStore } from './inbound.js';
import { PgKeptReceiptStore } from './kept-receipts.js';
import { PgMessagePartStore } from './message-parts.js';
import { PgMessageStore } from './messages.js';
import { runMigrations } from './migrations/runner.js';
import { PgNodeStore } from './nodes.js';
import { PgPinStore } from './pins.js';
import { PgRateWindowStore, PgSecretStore } from './rate-windows.js';
import { PgTwoFactorApplicationStore, PgTwoFactorTemplateStore } from './twofa.js';
import { PgOutboxStore } from './outbox.js';
import { PgPhoneStore } from './phones.js';
import { PgReportStore } from './reports.js';
import { withUnixSocket } from './connection-url.js';
import type { Sql } from './shared.js';
import { PgSubscriptionStore } from './subscriptions.js';

export interface PostgresStoreOptions {
  /** Schema holding every table; created if absent and put first on each connection's search_path. */
  schema?: string;
  /** Pool size. */
  max?: number;
  /** Seconds close() waits for running queries before cutting connections. */
  closeTimeout?: number;
  /**
   * false: commits return before their WAL is flushed (synchronous_commit = off). Only for writes
   * that are done again when lost: a crash of the database server can roll back about the last
   * 0.6 s of them, and the next durable commit on any connection flushes them too. Default true.
   */
  durableCommits?: boolean;
  /** Hears that the connection refused per-run planning (see PLAN_PER_RUN). */
  log?: { warn(details: object, message: string): void };
}

/**
 * Prepared statements are planned for their parameters each time. PostgreSQL caches a generic plan
 * after five runs, from the statistics of that moment, and tables that start empty (a new
 * deployment, the parts of long messages) grow long before autovacuum analyzes them: the part
 * receipts' lookup kept a plan made for a few rows and scanned the whole table, 35 ms a batch.
 * Measured on 3-part messages: 970-1 190 → 2 010-2 130 messages/s, PostgreSQL's CPU 9.3-12.4 →
 * 3.8-4.1 s; single-part messages over SMPP also a little faster, with less CPU.
 */
const PLAN_PER_RUN = { plan_cache_mode: 'force_custom_plan' } as const;

/**
 * The pool for the writes of messages by key (acceptance's insert, submits, status changes): one
 * generic plan per statement, kept. Their best plan is the same at any table size — an insert from
 * parameters, rows found by primary key — and planning them anew each run cost more than the rest
 * of their work justified: over SMPP, per 20 000 messages, these three statements took 2.4–2.5 s of
 * PostgreSQL's time, 0.3 s of it planning; with their plans kept, 1.7–1.8 s. A generic plan is made
 * once, perhaps while the tables are still empty, so these connections allow no sequential scan and
 * no hash or merge join, and a statement belongs here only if its one usable index is bounded by the
 * keys it is given (messages by pk: every other index of `messages` is partial on a state the
 * statement does not imply). Where another index also fits, the plan made on empty tables may walk
 * it end to end: the outbox's settle by item ids, planned so, took the pending items' index. And a
 * join that needs a hash stays out: the part receipts' update, joined to its receipts by part id,
 * became a nested loop over both and doubled PostgreSQL's time on long messages.
 */
const KEPT_PLANS = {
  plan_cache_mode: 'force_generic_plan',
  enable_seqscan: 'off',
  enable_hashjoin: 'off',
  enable_mergejoin: 'off',
  // What those settings refuse still gets planned when nothing else can do (the driver's own catalog
  // query at connect), at a cost so high that PostgreSQL would compile it to machine code every run.
  jit: 'off',
} as const;

/** Connections of the kept-plans pool at most: writes by key are short. */
const KEPT_PLANS_POOL = 4;

/**
 * Whether connecting failed on one of the named startup settings itself: PgBouncer refuses startup
 * parameters it does not know (08P01) unless told to ignore them, and PostgreSQL before 12 does not
 * know plan_cache_mode (42704).
 */
function refusedSetting(error: unknown, ...names: string[]): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (code === '08P01' || code === '42704') && typeof message === 'string' && names.some((name) => message.includes(name));
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/** int8 and numeric as JS numbers: ids and epoch-millisecond times stay well inside 2^53. */
const toNumber = (raw: string): number => Number(raw);
const fromNumber = (value: number): string => String(value);

type Planning = 'per-run' | 'kept' | 'default';

function connect(databaseUrl: string, options: PostgresStoreOptions, planning: Planning): Sql {
  const { url, path } = withUnixSocket(databaseUrl);
  return postgres(url, {
    ...(path === undefined ? {} : { path }),
    max: planning === 'kept' ? Math.min(options.max ?? 10, KEPT_PLANS_POOL) : (options.max ?? 10),
    prepare: true,
    idle_timeout: 60,
    onnotice: () => {},
    transform: { undefined: null },
    types: {
      bigint: { to: 20, from: [20], serialize: fromNumber, parse: toNumber },
      numeric: { to: 1700, from: [1700], serialize: fromNumber, parse: toNumber },
    },
    connection: {
      application_name: 'switchboard',
      ...(planning === 'per-run' ? PLAN_PER_RUN : planning === 'kept' ? KEPT_PLANS : {}),
      ...(options.schema ? { search_path: `"${options.schema}"` } : {}),
      ...(options.durableCommits === false ? { synchronous_commit: 'off' } : {}),
    },
  }) as unknown as Sql;
}

class PostgresStore implements Store {
  readonly driver = 'postgres' as const;
  readonly accounts: PgAccountStore;
  readonly keys: PgApiKeyStore;
  readonly messages: PgMessageStore;
  readonly parts: PgMessagePartStore;
  readonly keptReceipts: PgKeptReceiptStore;
  readonly reports: PgReportStore;
  readonly inbound: PgInboundStore;
  readonly outbox: PgOutboxStore;
  readonly subscriptions: PgSubscriptionStore;
  readonly phones: PgPhoneStore;
  readonly callsConfigurations: PgCallsConfigurationStore;
  readonly calls: PgCallStore;
  readonly audio: PgAudioStore;
  readonly nodes: PgNodeStore;
  readonly twoFactorApplications: PgTwoFactorApplicationStore;
  readonly twoFactorTemplates: PgTwoFactorTemplateStore;
  readonly pins: PgPinStore;
  readonly rateWindows: PgRateWindowStore;
  readonly secrets: PgSecretStore;
  readonly signals: StoreSignals;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly sql: Sql,
    /** The kept-plans pool (KEPT_PLANS), or `sql` itself where the connection refused its settings. */
    private readonly keptPlansSql: Sql,
    private readonly closeTimeout: number,
    private readonly durableCommits: boolean,
    schema: string | undefined,
  ) {
    // Channels are the database's, not a schema's: deployments sharing a database in schemas of
    // their own must not hear each other. A hash keeps the name within an identifier's 63 bytes.
    const scope = createHash('sha256').update(schema ?? '').digest('hex').slice(0, 16);
    const channelOf = (channel: string): string => `${channel}_${scope}`;
    this.signals = {
      listen: async (channel, onSignal) => (await sql.listen(channelOf(channel), onSignal)).unlisten,
      notify: async (channel, payload) => void (await sql.notify(channelOf(channel), payload)),
    };
    this.accounts = new PgAccountStore(sql);
    this.keys = new PgApiKeyStore(sql);
    this.messages = new PgMessageStore(sql, keptPlansSql);
    this.parts = new PgMessagePartStore(sql);
    this.keptReceipts = new PgKeptReceiptStore(sql);
    this.reports = new PgReportStore(sql);
    this.inbound = new PgInboundStore(sql);
    this.outbox = new PgOutboxStore(sql);
    this.subscriptions = new PgSubscriptionStore(sql);
    this.phones = new PgPhoneStore(sql);
    this.callsConfigurations = new PgCallsConfigurationStore(sql);
    this.calls = new PgCallStore(sql);
    this.audio = new PgAudioStore(sql);
    this.nodes = new PgNodeStore(sql);
    this.twoFactorApplications = new PgTwoFactorApplicationStore(sql);
    this.twoFactorTemplates = new PgTwoFactorTemplateStore(sql);
    this.pins = new PgPinStore(sql);
    this.rateWindows = new PgRateWindowStore(sql);
    this.secrets = new PgSecretStore(sql);
  }

  migrate(): Promise<string[]> {
    return runMigrations(this.sql);
  }

  async flushToDisk(): Promise<void> {
    if (this.durableCommits) return;
    // A commit that waits for the WAL flush flushes every record before it, other sessions' too.
    // It waits only if the transaction wrote WAL: a transactional logical message is the smallest
    // write open to any role, and touches no table.
    await this.sql.begin(async (tx) => {
      await tx`SET LOCAL synchronous_commit = on`;
      await tx`SELECT pg_logical_emit_message(true, 'switchboard', '')`;
    });
  }

  close(): Promise<void> {
    this.closing ??= Promise.all([
      this.sql.end({ timeout: this.closeTimeout }),
      this.keptPlansSql === this.sql ? undefined : this.keptPlansSql.end({ timeout: this.closeTimeout }),
    ]).then(() => undefined);
    return this.closing;
  }
}

/**
 * Opens a PostgreSQL store on a pool of connections. Call `migrate()` before use. Several
 * processes may share one database (and schema): claims use row locks with SKIP LOCKED.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const schema = options.schema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  let sql: Sql;
  try {
    sql = await reach(url, options, 'per-run');
  } catch (error) {
    if (!refusedSetting(error, ...Object.keys(PLAN_PER_RUN))) throw error;
    options.log?.warn(
      { reason: (error as Error).message },
      'the database connection refused plan_cache_mode; statements may keep plans made while tables were small. Behind PgBouncer, set it for the role instead: ALTER ROLE … SET plan_cache_mode = force_custom_plan',
    );
    sql = await reach(url, options, 'default');
    return new PostgresStore(sql, sql, options.closeTimeout ?? 5, options.durableCommits !== false, schema);
  }
  let keptPlansSql: Sql;
  try {
    keptPlansSql = await reach(url, options, 'kept');
  } catch (error) {
    // A pooler told to ignore plan_cache_mode may still refuse the planner settings of KEPT_PLANS.
    if (!refusedSetting(error, ...Object.keys(KEPT_PLANS))) {
      await sql.end({ timeout: 1 });
      throw error;
    }
    options.log?.warn({ reason: (error as Error).message }, 'the database connection refused planner settings; writes by key are planned every run');
    keptPlansSql = sql;
  }
  return new PostgresStore(sql, keptPlansSql, options.closeTimeout ?? 5, options.durableCommits !== false, schema);
}

/** A pool that has answered once, with the store's schema in place. */
async function reach(url: string, options: PostgresStoreOptions, planning: Planning): Promise<Sql> {
  const sql = connect(url, options, planning);
  const schema = options.schema;
  try {
    if (schema !== undefined) {
      try {
        await sql.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      } catch (error) {
        // Another node created it between the existence check and the insert.
        const code = (error as { code?: string }).code;
        if (code !== '23505' && code !== '42P06') throw error;
      }
    } else {
      await sql`SELECT 1`;
    }
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw error;
  }
  return sql;
}
