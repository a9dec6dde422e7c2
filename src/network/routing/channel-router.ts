import type { MessageChannel } from '../../core/store/types.js';
import type { Carrier, CarrierRouter, OutboundMessage } from '../carrier.js';
import { PrefixRouter } from './prefix-router.js';
import type { RouteRule } from './routing-config.js';

/** The channels a carrier carries: SMS unless it says otherwise. */
const carries = (carrier: Carrier | undefined, channel: MessageChannel): boolean => (carrier?.channels ?? ['SMS']).includes(channel);

/**
 * Routes each message by its channel, then by the prefix routes among the carriers of that channel:
 * an SMSC carries SMS, the sandbox SMS and RCS, and an RCS provider would carry RCS. An RCS message
 * no route's carrier can take is refused (REJECTED_ROUTE_NOT_AVAILABLE), which starts its SMS
 * failover if it has one.
 */
export class ChannelRouter implements CarrierRouter {
  private readonly sms: PrefixRouter;
  private readonly rcs: PrefixRouter;

  constructor(routes: RouteRule[], byName: Map<string, Carrier>) {
    this.sms = new PrefixRouter(routes.filter((r) => carries(byName.get(r.smsc), 'SMS')), byName);
    this.rcs = new PrefixRouter(routes.filter((r) => carries(byName.get(r.smsc), 'RCS')), byName);
  }

  carriers(): Carrier[] {
    return this.sms.carriers();
  }

  route(message: OutboundMessage): Carrier {
    return message.channel === 'RCS' ? this.rcs.route(message) : this.sms.route(message);
  }
}
