import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../config.js';
import type { SmscOptions } from '../smpp/smsc-options.js';
import { checkSmscOptions, defaultSmscOptions, SMSC_NAME, SMSC_SETTINGS, SmscConfigError } from '../smpp/smsc-settings.js';
import { parseSmscUrl } from '../smpp/smsc-url.js';
import { SANDBOX, type RouteRule, type RoutingConfig } from './routing-config.js';

/** Every problem of a route file at once, each with its JSON path. */
export class RouteFileError extends ConfigError {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`route file ${file} is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const SMSC_FIELDS = new Set(['name', 'url', 'host', 'port', 'tls', 'tlsCa', 'systemId', 'password', 'passwordEnv', ...Object.keys(SMSC_SETTINGS)]);
const ROUTE_FIELDS = new Set(['prefix', 'smsc', 'priority']);
const DEFAULT_PRIORITY = 100;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads and validates a route file (format in the README, "Live SMS over SMPP"). */
export async function loadRouteFile(file: string, env: Record<string, string | undefined>, defaults: { inboundAccount: string }): Promise<RoutingConfig> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    throw new RouteFileError(file, [`cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new RouteFileError(file, [`is not JSON: ${(error as Error).message}`]);
  }
  const problems: string[] = [];
  const config = parseRouting(json, problems, { env, inboundAccount: defaults.inboundAccount, baseDir: path.dirname(file) });
  if (problems.length > 0) throw new RouteFileError(file, problems);
  return config;
}

interface Context {
  env: Record<string, string | undefined>;
  inboundAccount: string;
  baseDir: string;
}

function parseRouting(json: unknown, problems: string[], context: Context): RoutingConfig {
  if (!isObject(json)) {
    problems.push('the file must hold a JSON object with "smscs" and "routes"');
    return { smscs: [], routes: [], source: 'file' };
  }
  for (const key of Object.keys(json)) if (key !== 'smscs' && key !== 'routes') problems.push(`${key}: unknown field (expected smscs, routes)`);
  const smscs: SmscOptions[] = [];
  if (!Array.isArray(json.smscs)) problems.push('smscs: must be an array of SMSCs');
  else json.smscs.forEach((entry, index) => {
    const smsc = parseSmsc(entry, `smscs[${index}]`, problems, context);
    if (!smsc) return;
    if (smscs.some((s) => s.name === smsc.name)) problems.push(`smscs[${index}].name: "${smsc.name}" is used twice`);
    else smscs.push(smsc);
  });
  const names = smscs.map((s) => s.name);
  let routes: RouteRule[];
  if (json.routes === undefined) {
    routes = smscs.map((smsc, order) => ({ prefixes: [''], smsc: smsc.name, priority: order, order }));
  } else if (!Array.isArray(json.routes)) {
    problems.push('routes: must be an array of routes');
    routes = [];
  } else {
    routes = json.routes.flatMap((entry, order) => parseRoute(entry, `routes[${order}]`, order, names, problems) ?? []);
    if (json.routes.length === 0) problems.push('routes: is empty, so nothing would be sent (omit it to use every SMSC for everything)');
  }
  return { smscs, routes, source: 'file' };
}

function parseSmsc(entry: unknown, where: string, problems: string[], context: Context): SmscOptions | undefined {
  if (!isObject(entry)) {
    problems.push(`${where}: must be an object`);
    return undefined;
  }
  const before = problems.length;
  for (const key of Object.keys(entry)) if (!SMSC_FIELDS.has(key)) problems.push(`${where}.${key}: unknown field`);
  const name = entry.name;
  if (typeof name !== 'string' || !SMSC_NAME.test(name)) problems.push(`${where}.name: required, 1–64 letters, digits, _ . -`);
  else if (name === SANDBOX) problems.push(`${where}.name: "sandbox" is reserved for the built-in sandbox network`);
  const label = `${where}${typeof name === 'string' ? ` (${name})` : ''}`;
  const attempt = (work: () => void): void => {
    try {
      work();
    } catch (error) {
      if (error instanceof SmscConfigError) problems.push(error.message);
      else throw error;
    }
  };
  let options = defaultSmscOptions(typeof name === 'string' ? name : '', context.inboundAccount);
  if (entry.url !== undefined) {
    if (typeof entry.url !== 'string') problems.push(`${where}.url: must be a string`);
    else attempt(() => (options = { ...parseSmscUrl(entry.url as string, `${label}.url`, { name: options.name, inboundAccount: context.inboundAccount }), name: options.name }));
    for (const key of ['host', 'systemId', 'password', 'passwordEnv', 'port', 'tls']) {
      if (entry[key] !== undefined) problems.push(`${where}.${key}: give either url or ${key}, not both`);
    }
  } else {
    if (typeof entry.host !== 'string' || entry.host === '') problems.push(`${where}.host: required (or give url)`);
    else options.host = entry.host;
    if (entry.tls !== undefined && typeof entry.tls !== 'boolean') problems.push(`${where}.tls: must be true or false`);
    if (entry.tls === true) options.tls = { rejectUnauthorized: true };
    const port = entry.port ?? (options.tls ? 3550 : 2775);
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) problems.push(`${where}.port: must be an integer between 1 and 65535`);
    else options.port = port;
    if (typeof entry.systemId !== 'string' || entry.systemId === '' || entry.systemId.length > 15) problems.push(`${where}.systemId: required, at most 15 characters`);
    else options.systemId = entry.systemId;
    const password = passwordOf(entry, where, problems, context.env);
    if (password !== undefined) options.password = password;
  }
  for (const [key, value] of Object.entries(entry)) {
    const apply = SMSC_SETTINGS[key];
    if (!apply) continue;
    if (key === 'tlsVerify' && !options.tls) {
      problems.push(`${where}.tlsVerify: only applies with TLS`);
      continue;
    }
    attempt(() => apply(options, value, `${where}.${key}`));
  }
  if (entry.tlsCa !== undefined) {
    if (typeof entry.tlsCa !== 'string' || !options.tls) problems.push(`${where}.tlsCa: a PEM file path, only with TLS`);
    else {
      try {
        options.tls!.ca = readFileSync(path.resolve(context.baseDir, entry.tlsCa), 'utf8');
      } catch (error) {
        problems.push(`${where}.tlsCa: cannot read ${entry.tlsCa} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      }
    }
  }
  attempt(() => checkSmscOptions(options, where));
  return problems.length === before ? options : undefined;
}

function passwordOf(entry: Record<string, unknown>, where: string, problems: string[], env: Record<string, string | undefined>): string | undefined {
  if (entry.password !== undefined && entry.passwordEnv !== undefined) {
    problems.push(`${where}: give either password or passwordEnv, not both`);
    return undefined;
  }
  let password: unknown = entry.password ?? '';
  if (entry.passwordEnv !== undefined) {
    if (typeof entry.passwordEnv !== 'string' || env[entry.passwordEnv] === undefined) {
      problems.push(`${where}.passwordEnv: the environment variable ${JSON.stringify(entry.passwordEnv)} is not set`);
      return undefined;
    }
    password = env[entry.passwordEnv];
  }
  if (typeof password !== 'string' || password.length > 8) {
    problems.push(`${where}.password: must be a string of at most 8 characters (SMPP 3.4)`);
    return undefined;
  }
  return password;
}

function parseRoute(entry: unknown, where: string, order: number, names: string[], problems: string[]): RouteRule | undefined {
  if (!isObject(entry)) {
    problems.push(`${where}: must be an object with prefix and smsc`);
    return undefined;
  }
  const before = problems.length;
  for (const key of Object.keys(entry)) if (!ROUTE_FIELDS.has(key)) problems.push(`${where}.${key}: unknown field (expected prefix, smsc, priority)`);
  const raw = Array.isArray(entry.prefix) ? entry.prefix : [entry.prefix];
  const prefixes: string[] = [];
  for (const prefix of raw) {
    if (prefix === '*') prefixes.push('');
    else if (typeof prefix === 'string' && /^\+?\d{1,15}$/.test(prefix)) prefixes.push(prefix.replace(/^\+/, ''));
    else problems.push(`${where}.prefix: ${JSON.stringify(prefix)} is not digits or "*"`);
  }
  if (raw.length === 0) problems.push(`${where}.prefix: must not be empty`);
  const smsc = entry.smsc;
  if (typeof smsc !== 'string' || (smsc !== SANDBOX && !names.includes(smsc))) {
    problems.push(`${where}.smsc: ${JSON.stringify(smsc)} is not a defined SMSC (defined: ${[...names, SANDBOX].join(', ')})`);
  }
  const priority = entry.priority ?? DEFAULT_PRIORITY;
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 1_000_000) {
    problems.push(`${where}.priority: must be an integer between 0 and 1000000`);
  }
  if (problems.length > before) return undefined;
  return { prefixes, smsc: smsc as string, priority: priority as number, order };
}
