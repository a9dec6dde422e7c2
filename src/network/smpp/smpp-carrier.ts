import type { Logger } from '../../logger.js';
import type { Clock } from '../../core/clock.js';
import { ERROR, STATUS, ref } from '../../core/pipeline/statuses.js';
import type { Carrier, CarrierEvents, OutboundMessage, SubmitOutcome } from '../carrier.js';
import { destinationAddress, sourceAddress } from './addressing.js';
import { STATUS as SMPP_STATUS, type Pdu } from './codec.js';
import { SmppConnection, type ConnectionRole } from './connection.js';
import { decodeInboundPart } from './inbound-decoding.js';
import { canonicalMessageId } from './message-ids.js';
import { isReceipt, parseReceipt } from './receipt.js';
import type { SmscOptions } from './smsc-options.js';
import { mapReceiptState, mapSubmitStatus } from './status-mapping.js';
import { encodeSubmitParts, type SubmitPart } from './submit-encoding.js';
import type { SubmitAnswer } from './submit-queue.js';
import { withFields } from '../../core/with-fields.js';

export interface SmppCarrierDeps {
  options: SmscOptions;
  /** Measures the submit deadline, unavailability, the binds' timers and the ages of what is kept. */
  clock: Clock;
  log: Logger;
  /** The id of the account inbound messages belong to (options.inboundAccount, created if absent). */
  resolveAccount(name: string): Promise<string>;
  /**
   * How long a submit may take, waiting for a bind, the window, throttling or a reconnect, before
   * the message goes back to the pipeline to be retried (default 5 s; below the dispatcher's lease).
   */
  submitDeadlineMs?: number;
}

/**
 * How long the carrier reports itself unavailable after the SMSC answered "not now" (throttling
 * that outlasted a submit, or a temporary error), so the router fails over to the next route.
 */
const UNAVAILABLE_AFTER_REFUSAL_MS = 5_000;

const RETRY_LATER = { status: ref(STATUS.PENDING_ENROUTE), errorId: ERROR.NO_ERROR.id };

/**
 * One SMSC as a carrier: its binds, the encoding of messages into submit_sm PDUs, and what the SMSC
 * sends: receipts (for a long message, one per part, under the part's id: the pipeline matches
 * them by part in the store), inbound messages and the parts of concatenated ones (stored and
 * joined by the pipeline). Nothing of either is kept here, so any node can take any of them.
 * Receipts and inbound messages are acknowledged to the SMSC only once the pipeline stored them;
 * when that fails the SMSC is answered ESME_RX_T_APPN and delivers them again.
 */
export class SmppCarrier implements Carrier {
  readonly name: string;
  readonly connections: SmppConnection[] = [];
  private readonly submitters: SmppConnection[] = [];
  private events: CarrierEvents | undefined;
  private accountId: string | undefined;
  private reference = Math.floor(Math.random() * 0x10000);
  private unavailableUntil = 0;

  constructor(private readonly deps: SmppCarrierDeps) {
    this.name = deps.options.name;
    const { options } = deps;
    for (let bind = 1; bind <= options.binds; bind++) {
      const roles: ConnectionRole[] = options.mode === 'transceiver' ? ['transceiver'] : ['transmitter', 'receiver'];
      for (const role of roles) {
        const connection = new SmppConnection({
          options,
          role,
          label: `${options.name}/${bind}/${role === 'transceiver' ? 'trx' : role === 'transmitter' ? 'tx' : 'rx'}`,
          log: deps.log,
          clock: deps.clock,
          onRequest: (request) => this.onRequest(request),
        });
        this.connections.push(connection);
        if (connection.canSubmit) this.submitters.push(connection);
      }
    }
  }

  available(): boolean {
    return this.deps.clock.now() >= this.unavailableUntil && this.submitters.some((c) => c.state === 'bound');
  }

  async start(events: CarrierEvents): Promise<void> {
    this.events = events;
    this.accountId = await this.deps.resolveAccount(this.deps.options.inboundAccount);
    for (const connection of this.connections) connection.start();
  }

  async submit(messages: OutboundMessage[]): Promise<SubmitOutcome[]> {
    const deadline = this.deps.clock.now() + (this.deps.submitDeadlineMs ?? 5_000);
    return Promise.all(messages.map((message) => this.submitOne(message, deadline)));
  }

  async stop(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.stop()));
    this.events = undefined;
  }

  private async submitOne(message: OutboundMessage, deadline: number): Promise<SubmitOutcome> {
    const { pk, accountId } = message;
    const { options } = this.deps;
    let parts: SubmitPart[];
    try {
      parts = encodeSubmitParts(message, options, this.reference++);
    } catch (error) {
      this.deps.log.warn({ err: error, messageId: message.messageId }, 'message cannot be encoded for SMPP');
      return { pk, accountId, ok: false, retryable: false, status: ref(STATUS.REJECTED_SYSTEM_ERROR), errorId: ERROR.EC_INVALID_PDU_FORMAT.id };
    }
    const source = sourceAddress(message.sender, options.source);
    const destination = destinationAddress(message.destination, options.destination);
    const common = {
      source_addr_ton: source.ton,
      source_addr_npi: source.npi,
      source_addr: source.addr,
      dest_addr_ton: destination.ton,
      dest_addr_npi: destination.npi,
      destination_addr: destination.addr,
      // 0x01: a final receipt; 0x10: intermediate notifications too, when the message wants them.
      registered_delivery: options.registeredDelivery ? (message.intermediateReport ? 0x11 : 0x01) : 0,
      validity_period: new Date(message.validUntil),
    };
    // Every part on one connection keeps the parts in order on the wire.
    const connection = this.pickConnection();
    const answers = await Promise.all(
      parts.map((part) =>
        connection.submit(
          withFields(common, { esm_class: part.esmClass, data_coding: part.dataCoding, short_message: part.shortMessage, ...part.tlvs }),
          deadline,
        ),
      ),
    );
    return this.outcome(message, answers);
  }

  private outcome(message: OutboundMessage, answers: SubmitAnswer[]): SubmitOutcome {
    const { pk, accountId } = message;
    const ids: string[] = [];
    let retry = false;
    for (const answer of answers) {
      if (answer.kind !== 'answered') {
        if (answer.kind === 'throttled') this.unavailableUntil = this.deps.clock.now() + UNAVAILABLE_AFTER_REFUSAL_MS;
        retry = true;
        continue;
      }
      const verdict = mapSubmitStatus(answer.status);
      if (verdict.kind === 'refused') return { pk, accountId, ok: false, retryable: false, status: verdict.status, errorId: verdict.errorId };
      if (verdict.kind === 'ok') {
        ids.push(canonicalMessageId(answer.messageId, this.deps.options.submitIdFormat));
      } else {
        this.unavailableUntil = this.deps.clock.now() + UNAVAILABLE_AFTER_REFUSAL_MS;
        retry = true;
      }
    }
    if (retry) return { pk, accountId, ok: false, retryable: true, ...RETRY_LATER };
    if (ids.length < 2) return { pk, accountId, ok: true, carrierMessageId: ids[0]! };
    return { pk, accountId, ok: true, carrierMessageId: ids.join(' '), partIds: ids };
  }

  /** The least loaded bound connection; when none is bound, the least loaded (it queues until bound). */
  private pickConnection(): SmppConnection {
    let best: SmppConnection | undefined;
    let bestBound = false;
    for (const connection of this.submitters) {
      const bound = connection.state === 'bound';
      if (!best || (bound && !bestBound) || (bound === bestBound && connection.load < best.load)) {
        best = connection;
        bestBound = bound;
      }
    }
    return best!;
  }

  private async onRequest(request: Pdu): Promise<number> {
    const events = this.events;
    if (!events) return SMPP_STATUS.ESME_RX_T_APPN;
    const fields = request as unknown as Record<string, unknown>;
    let work: () => Promise<void>;
    try {
      work = isReceipt(fields) ? this.receiptWork(events, fields) : this.inboundWork(events, fields);
    } catch (error) {
      // Sending it again would not help: refuse it for good rather than loop on it.
      this.deps.log.warn({ err: error, smsc: this.name }, 'deliver_sm that cannot be read refused');
      return SMPP_STATUS.ESME_RX_R_APPN;
    }
    await work();
    return SMPP_STATUS.ESME_ROK;
  }

  /** Reads a receipt now; the returned work records it (throws when it cannot be stored). */
  private receiptWork(events: CarrierEvents, fields: Record<string, unknown>): () => Promise<void> {
    const parsed = parseReceipt(fields);
    if (!parsed) {
      this.deps.log.warn({ smsc: this.name }, 'delivery receipt without a message id ignored');
      return async () => undefined;
    }
    const id = canonicalMessageId(parsed.id, this.deps.options.receiptIdFormat);
    const state = mapReceiptState(parsed.stat, parsed.err);
    return () => events.receipts(this.name, [{ carrierMessageId: id, ...state, at: this.deps.clock.now() }]);
  }

  private inboundWork(events: CarrierEvents, fields: Record<string, unknown>): () => Promise<void> {
    const part = decodeInboundPart(fields, this.deps.options.gsm7Packing === 'packed');
    const accountId = this.accountId!;
    const from = stripPlus(part.from);
    const to = stripPlus(part.to);
    return () => {
      const receivedAt = this.deps.clock.now();
      const { concat } = part;
      if (!concat) return events.inbound([{ accountId, from, to, text: part.text, smsCount: 1, receivedAt }]);
      return events.inboundPart({ accountId, from, to, reference: concat.reference, total: concat.total, seq: concat.seq, text: part.text, receivedAt });
    };
  }
}

const stripPlus = (address: string): string => (address.startsWith('+') ? address.slice(1) : address);
