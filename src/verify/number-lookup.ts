import { builtInOutcome } from '../network/sandbox/outcomes.js';
import { candidatesFor, SANDBOX, type RouteRule } from '../network/routing/routing-config.js';

export type NcStatus = 'NC_DESTINATION_UNKNOWN' | 'NC_DESTINATION_REACHABLE' | 'NC_DESTINATION_NOT_REACHABLE' | 'NC_NOT_CONFIGURED';

/**
 * Number lookup before an SMS PIN (`ncNeeded`). The sandbox knows its phones: a number its outcome
 * table makes undeliverable (ending in 9001) is not reachable, every other is. A number routed to a
 * real SMSC has no lookup service to ask: NC_NOT_CONFIGURED, and the PIN is sent.
 */
export function lookUpNumber(msisdn: string, routes: RouteRule[]): NcStatus {
  if (candidatesFor(routes, msisdn)[0]?.smsc !== SANDBOX) return 'NC_NOT_CONFIGURED';
  return builtInOutcome(msisdn) === 'UNDELIVERABLE' ? 'NC_DESTINATION_NOT_REACHABLE' : 'NC_DESTINATION_REACHABLE';
}
