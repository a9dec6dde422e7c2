import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ConfigError } from './config-error.js';
import type { RoutingConfig } from './network/routing/routing-config.js';

/** One typed, validated configuration object, built once from the environment and passed down. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://…` selects PostgreSQL; anything else is a SQLite file path. */
  databaseUrl: string;
  /** PostgreSQL schema to use (created if absent), so several deployments or test runs can share a database. */
  databaseSchema?: string;
  /** A key guaranteed to exist for the default account at start-up. */
  apiKey?: string;
  defaultAccount: string;
  sandboxLatencyMs: number;
  /** Optional JSON file with extra sandbox outcome rules. */
  sandboxRulesFile?: string;
  webhookRetryMs: number;
  /** Deliveries of one webhook batch before it is given up. */
  webhookMaxAttempts: number;
  webhookTimeoutMs: number;
  logLevel: string;
  /** How long finished messages, reports and webhook records are kept. */
  retentionMs: number;
  /** How long an API key check is cached; a key revoked from another process stops working within it. */
  authCacheMs: number;
  /**
   * `thread` runs the message engine (dispatch, carriers, receipts, webhooks) in a worker thread so
   * HTTP and the pipeline each get a core; `inline` keeps one thread (what tests with a manual clock use).
   */
  engine: 'thread' | 'inline';
  /** Identifies this process in logs and claims; several nodes may share one database. */
  nodeId: string;
  /** How often a node beats (tells the others it lives) and looks for nodes that stopped. */
  nodeHeartbeatMs: number;
  /** A node silent this long has stopped: the others take over its messages, webhooks and calls. */
  nodeTimeoutMs: number;
  /** JSON file naming the SMSCs and which destinations each carries (SWITCHBOARD_ROUTES). */
  routesFile?: string;
  /** One SMSC that carries every SMS (SWITCHBOARD_SMPP_URL); holds a password, never logged. */
  smppUrl?: string;
  /** The routing both of those describe, loaded and validated once at start-up (startServer). */
  routing?: RoutingConfig;
  /** The base URL clients reach this server at (SWITCHBOARD_PUBLIC_URL): call events give it as `apiBaseUrl`. */
  publicUrl: string;
  /**
   * The key PINs are derived and hashed under (SWITCHBOARD_PIN_KEY, 64 hex digits), kept out of the
   * store; without it a key made once is kept in the store. Secret: never logged.
   */
  pinKey?: string;
  /** Serve the sandbox console at /console (SWITCHBOARD_CONSOLE=on, the default, or off). */
  console: boolean;
}


type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function publicUrl(env: Env, config: Pick<Config, 'host' | 'port'>): string {
  const given = env.SWITCHBOARD_PUBLIC_URL;
  if (given === undefined || given.trim() === '') {
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new ConfigError(`SWITCHBOARD_PUBLIC_URL must be an absolute http or https URL, got "${given}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`SWITCHBOARD_PUBLIC_URL must be an absolute http or https URL, got "${given}"`);
  }
  return given.replace(/\/+$/, '');
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const databaseUrl = env.DATABASE_URL || path.join(dataDir, 'switchboard.db');
  const config: Config = {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl,
    defaultAccount: env.SWITCHBOARD_ACCOUNT || 'default',
    sandboxLatencyMs: integer(env, 'SWITCHBOARD_SANDBOX_LATENCY_MS', 1500, 0, 3_600_000),
    webhookRetryMs: integer(env, 'SWITCHBOARD_WEBHOOK_RETRY_MS', 60_000, 0, 86_400_000),
    webhookMaxAttempts: integer(env, 'SWITCHBOARD_WEBHOOK_MAX_ATTEMPTS', 10, 1, 100),
    webhookTimeoutMs: integer(env, 'SWITCHBOARD_WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000),
    logLevel: env.LOG_LEVEL || 'info',
    retentionMs: integer(env, 'SWITCHBOARD_RETENTION_HOURS', 72, 48, 24 * 3650) * 3_600_000,
    authCacheMs: integer(env, 'SWITCHBOARD_AUTH_CACHE_MS', 5_000, 0, 3_600_000),
    engine: env.SWITCHBOARD_ENGINE === 'inline' ? 'inline' : 'thread',
    nodeId: env.SWITCHBOARD_NODE_ID || randomUUID().slice(0, 8),
    nodeHeartbeatMs: integer(env, 'SWITCHBOARD_NODE_HEARTBEAT_MS', 5_000, 100, 60_000),
    nodeTimeoutMs: 0,
    publicUrl: '',
    console: env.SWITCHBOARD_CONSOLE !== 'off',
  };
  config.nodeTimeoutMs = integer(env, 'SWITCHBOARD_NODE_TIMEOUT_MS', Math.max(15_000, 3 * config.nodeHeartbeatMs), 200, 3_600_000);
  // One beat late (a pause, a slow database) must not make a live node dead.
  if (config.nodeTimeoutMs < 2 * config.nodeHeartbeatMs) {
    throw new ConfigError(
      `SWITCHBOARD_NODE_TIMEOUT_MS (${config.nodeTimeoutMs}) must be at least twice SWITCHBOARD_NODE_HEARTBEAT_MS (${config.nodeHeartbeatMs})`,
    );
  }
  config.publicUrl = publicUrl(env, config);
  if (env.SWITCHBOARD_API_KEY) {
    if (!/^\S{16,200}$/.test(env.SWITCHBOARD_API_KEY)) {
      throw new ConfigError('SWITCHBOARD_API_KEY must be 16 to 200 characters without spaces');
    }
    config.apiKey = env.SWITCHBOARD_API_KEY;
  }
  if (env.SWITCHBOARD_ENGINE && !['thread', 'inline'].includes(env.SWITCHBOARD_ENGINE)) {
    throw new ConfigError('SWITCHBOARD_ENGINE must be thread or inline');
  }
  if (env.SWITCHBOARD_CONSOLE && !['on', 'off'].includes(env.SWITCHBOARD_CONSOLE)) {
    throw new ConfigError('SWITCHBOARD_CONSOLE must be on or off');
  }
  if (env.DATABASE_SCHEMA) {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(env.DATABASE_SCHEMA)) {
      throw new ConfigError('DATABASE_SCHEMA must be a lower-case SQL identifier');
    }
    config.databaseSchema = env.DATABASE_SCHEMA;
  }
  if (env.SWITCHBOARD_PIN_KEY) {
    if (!/^[0-9a-fA-F]{64}$/.test(env.SWITCHBOARD_PIN_KEY)) {
      throw new ConfigError('SWITCHBOARD_PIN_KEY must be 64 hexadecimal digits (32 bytes, e.g. from `openssl rand -hex 32`)');
    }
    config.pinKey = env.SWITCHBOARD_PIN_KEY.toLowerCase();
  }
  if (env.SWITCHBOARD_ROUTES) config.routesFile = path.resolve(env.SWITCHBOARD_ROUTES);
  if (env.SWITCHBOARD_SMPP_URL) config.smppUrl = env.SWITCHBOARD_SMPP_URL;
  if (env.SWITCHBOARD_SANDBOX_RULES) config.sandboxRulesFile = path.resolve(env.SWITCHBOARD_SANDBOX_RULES);
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(config.logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${levels.join(', ')}`);
  return config;
}

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);
