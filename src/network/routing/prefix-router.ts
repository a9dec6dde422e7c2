import type { Carrier, CarrierRouter, OutboundSms } from '../carrier.js';
import { NoRouteCarrier } from './no-route-carrier.js';
import { candidatesFor, type RouteRule } from './routing-config.js';

/** Most distinct destinations whose candidate lists are kept (one entry per number, small). */
const CACHE_LIMIT = 50_000;

/**
 * Routes each message among the carriers of the routes matching its destination (see
 * `candidatesFor` for the order), skipping those that report themselves unavailable (bind down,
 * backing off). A first attempt takes the first available one; a retry moves on to the next, so a
 * message refused with a temporary error goes out through the next route. When none is available
 * the best one is used anyway: its submit answers "retry later" and the pipeline retries.
 * Destinations no route covers go to the NoRouteCarrier, which refuses them.
 */
export class PrefixRouter implements CarrierRouter {
  private readonly noRoute = new NoRouteCarrier();
  private readonly cache = new Map<string, Carrier[]>();
  private readonly used: Carrier[];

  constructor(
    private readonly routes: RouteRule[],
    private readonly byName: Map<string, Carrier>,
  ) {
    const names = new Set(routes.map((r) => r.smsc));
    this.used = [...names].map((name) => {
      const carrier = byName.get(name);
      if (!carrier) throw new Error(`route to unknown carrier ${name}`);
      return carrier;
    });
  }

  carriers(): Carrier[] {
    return [...this.used];
  }

  route(message: OutboundSms): Carrier {
    const destination = message.destination.startsWith('+') ? message.destination.slice(1) : message.destination;
    let candidates = this.cache.get(destination);
    if (!candidates) {
      candidates = candidatesFor(this.routes, destination).map((rule) => this.byName.get(rule.smsc)!);
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(destination, candidates);
    }
    if (candidates.length === 0) return this.noRoute;
    if (candidates.length === 1) return candidates[0]!;
    const available = candidates.filter((carrier) => carrier.available?.() !== false);
    if (available.length === 0) return candidates[0]!;
    return available[(Math.max(message.attempts, 1) - 1) % available.length]!;
  }
}
