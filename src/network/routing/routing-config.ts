import { ConfigError } from '../../config-error.js';
import type { SmscOptions } from '../smpp/smsc-options.js';
import { parseSmscUrl } from '../smpp/smsc-url.js';
import { loadRouteFile } from './route-file.js';

/** The name routes use for the built-in sandbox network. */
export const SANDBOX = 'sandbox';

/** The name of the SMSC given by SWITCHBOARD_SMPP_URL when its `name` parameter is left out. */
export const DEFAULT_URL_SMSC_NAME = 'smsc';

export interface RouteRule {
  /** Destination prefixes (digits, no '+'); '' matches every destination. */
  prefixes: string[];
  smsc: string;
  /** Lower is tried first. */
  priority: number;
  /** Position in the file, the last tie-breaker. */
  order: number;
}

export interface RoutingConfig {
  smscs: SmscOptions[];
  routes: RouteRule[];
  source: 'sandbox' | 'url' | 'file';
}

export function sandboxOnlyRouting(): RoutingConfig {
  return { smscs: [], routes: [{ prefixes: [''], smsc: SANDBOX, priority: 0, order: 0 }], source: 'sandbox' };
}

/**
 * The routing the environment asks for: SWITCHBOARD_ROUTES (a route file), or SWITCHBOARD_SMPP_URL
 * (one SMSC carrying every SMS, no sandbox fallback), or, with neither, the sandbox for everything.
 */
export async function loadRoutingConfig(
  config: { routesFile?: string; smppUrl?: string; defaultAccount: string },
  env: Record<string, string | undefined> = process.env,
): Promise<RoutingConfig> {
  if (config.routesFile && config.smppUrl) {
    throw new ConfigError('set either SWITCHBOARD_ROUTES or SWITCHBOARD_SMPP_URL, not both');
  }
  if (config.routesFile) return loadRouteFile(config.routesFile, env, { inboundAccount: config.defaultAccount });
  if (config.smppUrl) {
    const smsc = parseSmscUrl(config.smppUrl, 'SWITCHBOARD_SMPP_URL', { name: DEFAULT_URL_SMSC_NAME, inboundAccount: config.defaultAccount });
    return { smscs: [smsc], routes: [{ prefixes: [''], smsc: smsc.name, priority: 0, order: 0 }], source: 'url' };
  }
  return sandboxOnlyRouting();
}

/**
 * The routes that may carry a destination, best first: by priority, then the longer matching
 * prefix, then file order. Each SMSC appears once, with its best rule.
 */
export function candidatesFor(routes: RouteRule[], destination: string): RouteRule[] {
  const matches: Array<{ rule: RouteRule; length: number }> = [];
  for (const rule of routes) {
    let length = -1;
    for (const prefix of rule.prefixes) if (destination.startsWith(prefix) && prefix.length > length) length = prefix.length;
    if (length >= 0) matches.push({ rule, length });
  }
  matches.sort((a, b) => a.rule.priority - b.rule.priority || b.length - a.length || a.rule.order - b.rule.order);
  const seen = new Set<string>();
  const result: RouteRule[] = [];
  for (const { rule } of matches) {
    if (seen.has(rule.smsc)) continue;
    seen.add(rule.smsc);
    result.push(rule);
  }
  return result;
}
