import type { Carrier, CarrierRouter, OutboundMessage } from '../carrier.js';
import { NoRouteCarrier } from './no-route-carrier.js';
import { candidatesFor, type RouteRule } from './routing-config.js';

/** Most cached candidate lists; past it the cache starts again (only many long prefixes get there). */
const CACHE_LIMIT = 50_000;

/** Refuses what no route covers; one for every router, it holds no state. */
const NO_ROUTE = new NoRouteCarrier();

/**
 * Routes each message among the carriers of the routes matching its destination (see
 * `candidatesFor` for the order), skipping those that report themselves unavailable (bind down,
 * backing off). A first attempt takes the first available one; a retry moves on to the next, so a
 * message refused with a temporary error goes out through the next route. When none is available
 * the best one is used anyway: its submit answers "retry later" and the pipeline retries.
 * Destinations no route covers go to the NoRouteCarrier, which refuses them.
 */
export class PrefixRouter implements CarrierRouter {
  private readonly used: Carrier[];
  /**
   * Candidates by the destination's first `keyLength` digits: no prefix is longer, so those digits
   * decide every match, and the cache holds one entry per distinct beginning rather than per number.
   */
  private readonly keyLength: number;
  private readonly cache = new Map<string, Carrier[]>();

  constructor(
    private readonly routes: RouteRule[],
    private readonly byName: Map<string, Carrier>,
  ) {
    const names = new Set(routes.map((r) => r.smsc));
    this.used = [...names].map((name) => {
      const carrier = byName.get(name);
      if (!carrier) throw new Error(`a route names the carrier "${name}", which does not exist`);
      return carrier;
    });
    this.keyLength = routes.reduce((longest, r) => r.prefixes.reduce((most, p) => Math.max(most, p.length), longest), 0);
  }

  /**
   * Every carrier it was given, routed or not: an SMSC no route names still delivers inbound
   * messages and receipts for what it carried before, so it is started and resumed like the others.
   */
  carriers(): Carrier[] {
    return [...new Set([...this.used, ...this.byName.values()])];
  }

  route(message: OutboundMessage): Carrier {
    const candidates = this.candidates(message.destination);
    if (candidates.length === 0) return NO_ROUTE;
    if (candidates.length === 1) return candidates[0]!;
    let available = 0;
    for (const carrier of candidates) if (carrier.available?.() !== false) available++;
    if (available === 0) return candidates[0]!;
    // Without allocating: the (attempts-1)-th available carrier, round the list.
    let wanted = (Math.max(message.attempts, 1) - 1) % available;
    for (const carrier of candidates) {
      if (carrier.available?.() === false) continue;
      if (wanted === 0) return carrier;
      wanted--;
    }
    return candidates[0]!;
  }

  private candidates(destination: string): Carrier[] {
    const key = (destination.startsWith('+') ? destination.slice(1) : destination).slice(0, this.keyLength);
    let candidates = this.cache.get(key);
    if (!candidates) {
      candidates = candidatesFor(this.routes, key).map((rule) => this.byName.get(rule.smsc)!);
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(key, candidates);
    }
    return candidates;
  }
}
