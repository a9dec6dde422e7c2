import type { MessageChannel } from '../core/store/types.js';
import type { Carrier, CarrierEvents } from './carrier.js';

/**
 * The seam between the RCS channel and an RCS network: the sandbox's handsets now, a provider such
 * as Google's RBM later. Messages go out and receipts come back as on any Carrier; besides those an
 * RCS network reports what its users do — open a message, write to a sender — and the RCS channel
 * handles that the same way whichever network reported it. Nothing here knows HTTP or SQL.
 */

/**
 * The end user opened a message, named as the network was handed it (OutboundMessage's accountId
 * and messageId): RBM, for one, takes the message id from the sender and reports it back.
 */
export interface RcsSeen {
  accountId: string;
  messageId: string;
  seenAt: number;
}

/** What an end user sent: text, a tapped suggestion, or a shared location. */
export type RcsInboundContent =
  | { type: 'TEXT'; text: string }
  | { type: 'SUGGESTION'; text: string; postbackData: string }
  | { type: 'LOCATION'; latitude: number; longitude: number };

/** A message from an end user to an RCS sender (agent). */
export interface InboundRcs {
  /** The account the sender belongs to. */
  accountId: string;
  /** The end user's number, normalized (no leading +). */
  from: string;
  /** The sender (agent) written to. */
  to: string;
  content: RcsInboundContent;
  receivedAt: number;
}

/** A seen event handled: the message it named, and how many webhook targets its report was queued for. */
export interface RcsSeenHandled {
  accountId: string;
  messageId: string;
  pushed: number;
}

/** An inbound message handled: the id it was given, the outbound message it answers if any, targets pushed to. */
export interface InboundRcsHandled {
  messageId: string;
  pairedMessageId?: string;
  pushed: number;
}

/**
 * Where an RCS network reports its users' events. Both resolve once what they bring is stored (the
 * webhooks queued in the durable outbox), so a network can acknowledge then, and reject when it was
 * not, so it can report again. A seen event naming no RCS message is ignored (no entry in the
 * answer).
 */
export interface RcsEvents {
  seen(events: RcsSeen[]): Promise<RcsSeenHandled[]>;
  inbound(messages: InboundRcs[]): Promise<InboundRcsHandled[]>;
}

/** What a network carrying RCS is started with: a carrier's events and its users' (the engine gives every carrier both). */
export interface RcsNetworkEvents extends CarrierEvents {
  readonly rcs: RcsEvents;
}

/** A network that carries RCS, routed like any carrier by its channels. */
export interface RcsNetwork extends Carrier {
  readonly channels: readonly MessageChannel[];
  start(events: RcsNetworkEvents): Promise<void>;
}
