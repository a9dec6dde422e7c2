import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../config-error.js';
import type { SmscOptions } from '../smpp/smsc-options.js';
import { checkSmscOptions, defaultSmscOptions, SMSC_NAME, SMSC_SETTINGS } from '../smpp/smsc-settings.js';
import { MAX_PASSWORD_LENGTH, MAX_SYSTEM_ID_LENGTH, parseSmscUrl, SMPP_PORT, SMPPS_PORT, SmscConfigError } from '../smpp/smsc-url.js';
import { SANDBOX, type RouteRule, type RoutingConfig } from './routing-config.js';

/** Every problem of a route file at once, each with its JSON path. */
export class RouteFileError extends ConfigError {
  constructor(
    readonly file: string,
    readonly problems: string[],
    /** Set when the file could not be read or parsed at all: the one thing to say. */
    summary?: string,
  ) {
    super(summary ? `route file ${file} ${summary}` : `route file ${file} is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const ADDRESS_FIELDS = ['host', 'port', 'tls', 'systemId'] as const;
const SMSC_FIELDS = new Set(['name', 'url', ...ADDRESS_FIELDS, 'tlsCa', 'password', 'passwordEnv', ...Object.keys(SMSC_SETTINGS)]);
const ROUTE_FIELDS = new Set(['prefix', 'smsc', 'priority']);
export const DEFAULT_PRIORITY = 100;
const MAX_PRIORITY = 1_000_000;

const READ_ERRORS: Record<string, string> = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'it is a directory' };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads and validates a route file (format in the README, "Live SMS over SMPP"). */
export async function loadRouteFile(file: string, env: Record<string, string | undefined>, defaults: { inboundAccount: string }): Promise<RoutingConfig> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const problem = `cannot be read: ${code}${READ_ERRORS[code] ? ` (${READ_ERRORS[code]})` : ''}`;
    throw new RouteFileError(file, [problem], problem);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    const problem = `is not JSON: ${describeJsonError((error as Error).message, raw)}`;
    throw new RouteFileError(file, [problem], problem);
  }
  const problems: string[] = [];
  const config = parseRouting(json, problems, { env, inboundAccount: defaults.inboundAccount, baseDir: path.dirname(file) });
  if (problems.length > 0) throw new RouteFileError(file, problems);
  return config;
}

interface Context {
  env: Record<string, string | undefined>;
  inboundAccount: string;
  /** Where relative paths in the file (tlsCa) start. */
  baseDir: string;
}

function parseRouting(json: unknown, problems: string[], context: Context): RoutingConfig {
  if (!isObject(json)) {
    problems.push('the file must hold a JSON object with "smscs" and "routes"');
    return { smscs: [], routes: [], source: 'file' };
  }
  for (const key of Object.keys(json)) if (key !== 'smscs' && key !== 'routes') problems.push(`${key}: unknown field (expected smscs, routes)`);
  const smscs: SmscOptions[] = [];
  // Names as written, valid or not, so a route to an SMSC with a bad setting is not also reported as undefined.
  const declared: string[] = [];
  if (!Array.isArray(json.smscs)) problems.push('smscs: required, an array of SMSCs');
  else {
    json.smscs.forEach((entry, index) => {
      const where = `smscs[${index}]`;
      const name = isObject(entry) ? entry.name : undefined;
      if (typeof name === 'string' && declared.includes(name)) problems.push(`${where}.name: "${name}" is already the name of an earlier SMSC`);
      else if (typeof name === 'string' && name !== SANDBOX) declared.push(name);
      const smsc = parseSmsc(entry, where, problems, context);
      if (smsc) smscs.push(smsc);
    });
  }
  let routes: RouteRule[] = [];
  if (json.routes === undefined) {
    if (Array.isArray(json.smscs) && json.smscs.length === 0) problems.push('smscs: is empty and there are no routes, so nothing could be sent');
    routes = smscs.map((smsc, order) => ({ prefixes: [''], smsc: smsc.name, priority: order, order }));
  } else if (!Array.isArray(json.routes)) {
    problems.push('routes: must be an array of routes (or left out: every SMSC then carries everything)');
  } else {
    if (json.routes.length === 0) problems.push('routes: is empty, so nothing would be sent (leave it out to use every SMSC for everything)');
    routes = json.routes.flatMap((entry, order) => parseRoute(entry, `routes[${order}]`, order, declared, problems) ?? []);
  }
  return { smscs, routes, source: 'file' };
}

function parseSmsc(entry: unknown, where: string, problems: string[], context: Context): SmscOptions | undefined {
  if (!isObject(entry)) {
    problems.push(`${where}: must be an object with a name and a url (or host, systemId…)`);
    return undefined;
  }
  const before = problems.length;
  for (const key of Object.keys(entry)) if (!SMSC_FIELDS.has(key)) problems.push(`${where}.${key}: unknown field`);
  const name = entry.name;
  if (name === SANDBOX) problems.push(`${where}.name: "sandbox" is reserved for the built-in sandbox network`);
  else if (typeof name !== 'string' || !SMSC_NAME.test(name)) problems.push(`${where}.name: required, 1–64 letters, digits, _ . - (got ${JSON.stringify(name)})`);
  const validName = typeof name === 'string' ? name : '';
  const attempt = (work: () => void): void => {
    try {
      work();
    } catch (error) {
      if (error instanceof SmscConfigError) problems.push(error.message);
      else throw error;
    }
  };
  let options = defaultSmscOptions(validName, context.inboundAccount);
  // When the url cannot be read, whether TLS is on is unknown: TLS-only fields are not judged then.
  let tlsKnown = true;
  if (entry.url !== undefined) {
    for (const key of ADDRESS_FIELDS) if (entry[key] !== undefined) problems.push(`${where}.${key}: give either url or ${key}, not both`);
    if (typeof entry.url !== 'string') problems.push(`${where}.url: must be a string, smpp://SYSTEM_ID:PASSWORD@HOST:PORT?settings`);
    else {
      const count = problems.length;
      attempt(() => (options = parseSmscUrl(entry.url as string, `${where}.url`, { name: validName, inboundAccount: context.inboundAccount })));
      tlsKnown = problems.length === count;
      if (options.name !== validName) problems.push(`${where}.url: its name parameter differs from "name"; give the name once`);
    }
    if (entry.password !== undefined || entry.passwordEnv !== undefined) {
      if (options.password !== '') problems.push(`${where}: the url holds a password already; remove it there or remove password/passwordEnv`);
      else assignPassword(entry, where, problems, context.env, options);
    }
  } else {
    if (typeof entry.host !== 'string' || entry.host === '') problems.push(`${where}.host: required (or give url)`);
    else options.host = entry.host;
    if (entry.tls !== undefined && typeof entry.tls !== 'boolean') problems.push(`${where}.tls: must be true or false, got ${JSON.stringify(entry.tls)}`);
    if (entry.tls === true) options.tls = { rejectUnauthorized: true };
    const port = entry.port ?? (options.tls ? SMPPS_PORT : SMPP_PORT);
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
      problems.push(`${where}.port: must be an integer between 1 and 65535, got ${JSON.stringify(port)}`);
    } else options.port = port;
    if (typeof entry.systemId !== 'string' || entry.systemId === '' || entry.systemId.length > MAX_SYSTEM_ID_LENGTH) {
      problems.push(`${where}.systemId: required, a string of 1 to ${MAX_SYSTEM_ID_LENGTH} characters (SMPP 3.4)`);
    } else options.systemId = entry.systemId;
    assignPassword(entry, where, problems, context.env, options);
  }
  for (const [key, value] of Object.entries(entry)) {
    const setting = SMSC_SETTINGS[key];
    if (!setting) continue;
    if (typeof value !== setting.json) {
      problems.push(`${where}.${key}: must be a JSON ${setting.json}, got ${JSON.stringify(value)}`);
      continue;
    }
    if (key === 'tlsVerify' && !options.tls) {
      if (tlsKnown) problems.push(`${where}.tlsVerify: only applies with TLS (smpps:// or "tls": true)`);
      continue;
    }
    attempt(() => setting.apply(options, value, `${where}.${key}`));
  }
  if (entry.tlsCa !== undefined && tlsKnown) readTlsCa(entry.tlsCa, `${where}.tlsCa`, options, problems, context.baseDir);
  if (problems.length === before) attempt(() => checkSmscOptions(options, where));
  return problems.length === before ? options : undefined;
}

function assignPassword(entry: Json, where: string, problems: string[], env: Record<string, string | undefined>, options: SmscOptions): void {
  if (entry.password !== undefined && entry.passwordEnv !== undefined) {
    problems.push(`${where}: give either password or passwordEnv, not both`);
    return;
  }
  let password: unknown = entry.password ?? '';
  if (entry.passwordEnv !== undefined) {
    if (typeof entry.passwordEnv !== 'string' || entry.passwordEnv === '') {
      problems.push(`${where}.passwordEnv: must be the name of an environment variable, got ${JSON.stringify(entry.passwordEnv)}`);
      return;
    }
    password = env[entry.passwordEnv];
    if (password === undefined) {
      problems.push(`${where}.passwordEnv: the environment variable ${JSON.stringify(entry.passwordEnv)} is not set`);
      return;
    }
  }
  const field = entry.passwordEnv !== undefined ? `the variable ${entry.passwordEnv as string}` : 'password';
  if (typeof password !== 'string') problems.push(`${where}.password: must be a string`);
  else if (password.length > MAX_PASSWORD_LENGTH) problems.push(`${where}: ${field} has more than ${MAX_PASSWORD_LENGTH} characters (SMPP 3.4 allows ${MAX_PASSWORD_LENGTH})`);
  else options.password = password;
}

function readTlsCa(value: unknown, where: string, options: SmscOptions, problems: string[], baseDir: string): void {
  if (typeof value !== 'string' || value === '') problems.push(`${where}: must be the path of a PEM file`);
  else if (!options.tls) problems.push(`${where}: only applies with TLS (smpps:// or "tls": true)`);
  else {
    try {
      options.tls.ca = readFileSync(path.resolve(baseDir, value), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      problems.push(`${where}: cannot read ${value}: ${code}${READ_ERRORS[code] ? ` (${READ_ERRORS[code]})` : ''}`);
    }
  }
}

/**
 * The parser's message with a line and column, without the excerpt of the file that V8 quotes in
 * some messages (it may hold a password). V8 quotes up to 10 characters either side of the error.
 */
export function describeJsonError(message: string, raw: string): string {
  const CONTEXT = 10;
  let position: number | undefined;
  let text = message;
  const quoted = /^(.*?), (\.\.\.)?"(.*)"(\.\.\.)? is not valid JSON$/s.exec(message);
  if (quoted) {
    const [, head, cutBefore, excerpt, cutAfter] = quoted;
    text = head!;
    const start = raw.indexOf(excerpt!);
    if (start >= 0 && cutBefore) position = start + CONTEXT;
    else if (start === 0 && cutAfter) position = excerpt!.length - CONTEXT;
  } else {
    const at = / in JSON at position (\d+)/.exec(message);
    if (at) {
      position = Number(at[1]);
      text = message.slice(0, at.index);
    }
  }
  if (position === undefined) return text;
  const lines = raw.slice(0, position).split('\n');
  return `${text} at line ${lines.length}, column ${lines.at(-1)!.length + 1}`;
}

function parseRoute(entry: unknown, where: string, order: number, names: string[], problems: string[]): RouteRule | undefined {
  if (!isObject(entry)) {
    problems.push(`${where}: must be an object with prefix and smsc`);
    return undefined;
  }
  const before = problems.length;
  for (const key of Object.keys(entry)) if (!ROUTE_FIELDS.has(key)) problems.push(`${where}.${key}: unknown field (expected prefix, smsc, priority)`);
  const prefixes = parsePrefixes(entry.prefix, `${where}.prefix`, problems);
  const smsc = entry.smsc;
  if (typeof smsc !== 'string' || (smsc !== SANDBOX && !names.includes(smsc))) {
    const defined = names.length > 0 ? `${names.join(', ')} and ${SANDBOX}` : SANDBOX;
    problems.push(`${where}.smsc: ${JSON.stringify(smsc)} is not a defined SMSC (defined: ${defined})`);
  }
  const priority = entry.priority ?? DEFAULT_PRIORITY;
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > MAX_PRIORITY) {
    problems.push(`${where}.priority: must be an integer between 0 and ${MAX_PRIORITY}, got ${JSON.stringify(priority)}`);
  }
  if (problems.length > before) return undefined;
  return { prefixes, smsc: smsc as string, priority: priority as number, order };
}

/** Digits of the destination without '+' (a leading '+' is dropped), or '*'; '' stands for everything. */
function parsePrefixes(value: unknown, where: string, problems: string[]): string[] {
  if (value === undefined) {
    problems.push(`${where}: required, digits of the destination, a list of them, or "*"`);
    return [];
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) problems.push(`${where}: must not be an empty list`);
  const prefixes: string[] = [];
  for (const prefix of list) {
    if (prefix === '*') prefixes.push('');
    else if (typeof prefix === 'string' && /^\+?\d{1,15}$/.test(prefix)) prefixes.push(prefix.replace(/^\+/, ''));
    else problems.push(`${where}: ${JSON.stringify(prefix)} is not digits (at most 15) or "*"`);
  }
  return prefixes;
}
