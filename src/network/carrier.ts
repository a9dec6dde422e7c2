import type { MessageChannel, MessageContent, NewMessage, PhoneReceipt, ReceiptReport, StatusRef, StoredMessage } from '../core/store/types.js';

/**
 * The seam between the message pipeline and a network. The sandbox is the first implementation; an
 * SMPP connector implements the same interface, so the pipeline never changes for a new network.
 * Nothing here knows HTTP or SQL.
 */

/** A message as handed to a carrier: an SMS, or RCS content for a network that carries RCS. */
export interface OutboundMessage {
  accountId: string;
  pk: number;
  messageId: string;
  /** SMS when absent. */
  channel?: MessageChannel;
  sender?: string;
  destination: string;
  content: MessageContent;
  encoding: NewMessage['encoding'];
  messageCount: number;
  validUntil: number;
  flash: boolean;
  /** Claims so far, this one included: 1 on the first try, more after retries (routers fail over by it). */
  attempts: number;
  /** The message asked for intermediate reports (networks that send them on request are asked to). */
  intermediateReport?: boolean;
}

/** A final outcome the network knew at submit (see SubmitOutcome). */
export interface SettledOutcome {
  status: StatusRef;
  errorId: number;
  at: number;
  /** The destination's virtual phone received the message, recorded with the outcome. */
  phone?: PhoneReceipt;
}

export type SubmitOutcome =
  | {
      pk: number;
      accountId: string;
      ok: true;
      carrierMessageId: string;
      /**
       * A long message whose parts the network knows by ids of their own (SMPP), in part order: their
       * receipts come per part and are matched by part (the store keeps each part's state).
       * `carrierMessageId` is then these ids joined by spaces.
       */
      partIds?: string[];
      /**
       * The network already knows the final outcome (the sandbox at zero latency): the pipeline
       * records the submit and this status in one write, and no receipt follows.
       */
      settled?: SettledOutcome;
    }
  /** `retryable`: try again later (throttled, bind down); otherwise final with this status. */
  | { pk: number; accountId: string; ok: false; retryable: boolean; status: StatusRef; errorId: number };

/** A delivery receipt or intermediate state reported by the network. */
export type CarrierReceipt = ReceiptReport;

/** A mobile-originated message arriving from the network. */
export interface InboundSms {
  /** The account the receiving number belongs to. */
  accountId: string;
  from: string;
  to: string;
  text: string;
  smsCount: number;
  receivedAt: number;
}

/** One part of a concatenated mobile-originated message (UDH or SAR numbering). */
export interface InboundSmsPart {
  accountId: string;
  from: string;
  to: string;
  /** The concatenation reference the sender chose: with sender, recipient and total, it names the message. */
  reference: number;
  total: number;
  /** 1 to total. */
  seq: number;
  text: string;
  receivedAt: number;
}

/**
 * Where a carrier reports what the network sends. Both resolve once what was reported is stored
 * (so a network that waits for acknowledgements can acknowledge then); `inbound` rejects when a
 * message could not be stored, so the network can deliver it again.
 */
export interface CarrierEvents {
  receipts(carrier: string, receipts: CarrierReceipt[]): Promise<void>;
  inbound(messages: InboundSms[]): Promise<void>;
  /**
   * One part of a concatenated inbound message: resolves once the part is stored (and the whole
   * message with it when it was the last part missing, whichever node received the others);
   * rejects when it could not be stored, so the network can deliver it again.
   */
  inboundPart(part: InboundSmsPart): Promise<void>;
}

export interface Carrier {
  readonly name: string;
  /** The channels it carries; SMS only when absent. */
  readonly channels?: readonly MessageChannel[];
  /**
   * False while the carrier cannot take submits (no bind up, backing off after throttling), so a
   * router can fail over to the next route. Carriers that are always ready leave it out.
   */
  available?(): boolean;
  start(events: CarrierEvents): Promise<void>;
  /** Resolves once the carrier accepted or refused each message; one outcome per input, any order. */
  submit(messages: OutboundMessage[]): Promise<SubmitOutcome[]>;
  /**
   * Called at start-up with messages submitted to this carrier that have no final status yet, and
   * when this node takes over those a stopped node had submitted, for a carrier that must act on
   * them again (the sandbox issues their receipts again). A carrier whose network reports by itself
   * (an SMSC: the store matches its receipts on any node) leaves it out.
   */
  resume?(submitted: StoredMessage[]): Promise<void>;
  /** Stops taking submits; pending receipts may be dropped (resumed at the next start, or by the node that takes over). */
  stop(): Promise<void>;
}

/** Chooses the carrier for a message (prefix routes, failover); the sandbox when nothing is configured. */
export interface CarrierRouter {
  carriers(): Carrier[];
  route(message: OutboundMessage): Carrier;
}
