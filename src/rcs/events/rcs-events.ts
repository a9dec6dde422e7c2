import type { RcsEvents } from '../../network/rcs-network.js';
import type { RcsEventDeps } from './event-deps.js';
import { receiveRcsInbound } from './inbound.js';
import { recordSeen } from './seen.js';

/** How the RCS channel handles what any RCS network reports of its users (the engine gives it to every carrier). */
export function rcsEvents(deps: RcsEventDeps): RcsEvents {
  return {
    seen: (events) => recordSeen(deps, events),
    inbound: (messages) => receiveRcsInbound(deps, messages),
  };
}
