import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../core/clock.js';
import { createSmppServer, ESM_CLASS, refusalOf, STATUS, type Pdu, type SmppServer, type SmppSocketSession } from '../network/smpp/codec.js';
import { faultRefusal, type RateWindow, type SimulatorFaults } from './faults.js';
import { decodeInboundPart } from '../network/smpp/inbound-decoding.js';
import { decideOutcome, type Outcome, type OutcomeRule } from './outcomes.js';
import { OutgoingQueue } from './outgoing-queue.js';
import { ReceivedMessages, type ReceivedMessage } from './received-messages.js';
import { inboundParts, receiptExcerpt, receiptFields, type InboundSplit } from './simulated-pdus.js';

export interface SmscSimulatorOptions {
  /** Listen address (127.0.0.1). */
  host: string;
  /** 0 picks a free port; `start()` says which. */
  port: number;
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Accounts allowed to bind; any system id and password when absent. */
  accounts?: Array<{ systemId: string; password: string }>;
  receiptDelayMs: number;
  /** How submit_sm_resp writes message ids, and how receipts quote them. */
  idFormat: 'hex' | 'decimal';
  receiptIdFormat?: 'hex' | 'decimal';
  /** Receipt text, TLVs (receipted_message_id, message_state) or both. */
  receiptStyle: 'text+tlv' | 'text' | 'tlv';
  rules: OutcomeRule[];
  /** Send an ENROUTE intermediate notification at once, before the final receipt, when the submit asked (registered_delivery 0x10). */
  intermediate: boolean;
  gsm7Packing: 'unpacked' | 'packed';
  /** Keep every received message for `received()` (off for long benchmark runs). */
  keepMessages: boolean;
  /** Deliver an unacknowledged deliver_sm again after this long. */
  inboundRetryMs: number;
  /**
   * Send each receipt on another bind of the system id than the one that submitted its message
   * (while another is bound), as SMSCs that spread receipts over an account's binds do.
   */
  receiptsOnOtherBind: boolean;
  /** Send each part of a concatenated mobile-originated message on another bind than the part before it (while another is bound). */
  spreadInboundParts: boolean;
  faults: SimulatorFaults;
}

type BindMode = 'transceiver' | 'transmitter' | 'receiver';

interface SessionState extends RateWindow {
  systemId: string;
  mode: BindMode | undefined;
  /** Responses written in this turn of the event loop go out in one write. */
  corked: boolean;
}

const DEFAULTS: SmscSimulatorOptions = {
  host: '127.0.0.1',
  port: 0,
  receiptDelayMs: 0,
  idFormat: 'hex',
  receiptStyle: 'text+tlv',
  rules: [],
  intermediate: false,
  gsm7Packing: 'unpacked',
  keepMessages: true,
  inboundRetryMs: 5000,
  receiptsOnOtherBind: false,
  spreadInboundParts: false,
  faults: {},
};

/**
 * A simulated SMS centre speaking SMPP 3.4: binds in the three modes, answers submits at once with
 * a new message id, sends receipts after a delay with outcomes chosen by destination, injects
 * mobile-originated messages, and misbehaves on request (throttling, full queues, rejections,
 * dropped connections, refused binds). Its delays, rates and retries follow the Clock it is given.
 */
export class SmscSimulator extends EventEmitter {
  readonly options: SmscSimulatorOptions;
  private server: SmppServer | undefined;
  private readonly sessions = new Map<SmppSocketSession, SessionState>();
  private readonly outgoing: OutgoingQueue;
  private readonly messages: ReceivedMessages;
  private nextId = 0x10000000 + Math.floor(Math.random() * 0x10000000);
  private reference = Math.floor(Math.random() * 256);
  private counts = { submits: 0, throttled: 0 };

  constructor(
    options: Partial<SmscSimulatorOptions>,
    private readonly clock: Clock,
  ) {
    super();
    this.options = { ...DEFAULTS, ...options, faults: { ...options.faults } };
    this.outgoing = new OutgoingQueue(this.options.inboundRetryMs, clock);
    this.messages = new ReceivedMessages(this.options.gsm7Packing === 'packed');
  }

  async start(): Promise<{ port: number }> {
    const server = createSmppServer(this.options.tls ?? {}, (session) => this.accept(session));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => resolve());
    });
    return { port: (server.address() as AddressInfo).port };
  }

  async stop(): Promise<void> {
    this.outgoing.stop();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    this.disconnectAll();
    await closed;
  }

  received(): ReceivedMessage[] {
    return [...this.messages.list];
  }

  clearReceived(): void {
    this.messages.clear();
  }

  setFaults(faults: Partial<SimulatorFaults>): void {
    Object.assign(this.options.faults, faults);
  }

  /** Drops every connection at once, as a crashing SMSC or a broken network would. */
  disconnectAll(): void {
    for (const session of this.sessions.keys()) {
      // Answers already given are on their way; only what comes after is lost.
      while (session.socket.writableCorked > 0) session.socket.uncork();
      session.destroy();
    }
  }

  /** Sends a mobile-originated message to a receiver bound as `systemId` (any, by default); resolves once acknowledged. */
  injectInbound(message: { from: string; to: string; text: string; systemId?: string; split?: InboundSplit }): Promise<void> {
    const systemId = message.systemId ?? this.anyBoundSystemId();
    if (systemId === undefined) return Promise.reject(new Error('no receiver is bound'));
    const parts = inboundParts(message, this.reference++ & 0xff, message.split ?? 'udh8');
    const spread = this.options.spreadInboundParts ? {} : undefined;
    return new Promise((resolve) => {
      let left = parts.length;
      for (const fields of parts) {
        this.outgoing.push({ systemId, dueAt: this.clock.now(), fields, kind: 'inbound', onAck: () => --left === 0 && resolve(), ...(spread ? { spread } : {}) });
      }
    });
  }

  /** Sends a receipt for any message id (e.g. one submitted before a restart); resolves once acknowledged. */
  injectReceipt(receipt: { id: string; stat: string; err?: number; systemId?: string }): Promise<void> {
    const systemId = receipt.systemId ?? this.anyBoundSystemId();
    if (systemId === undefined) return Promise.reject(new Error('no receiver is bound'));
    const now = this.clock.now();
    const fields = receiptFields({}, { id: receipt.id, stat: receipt.stat, err: receipt.err ?? 0, submittedAt: now, doneAt: now, excerpt: '' }, this.options.receiptStyle, ESM_CLASS.MC_DELIVERY_RECEIPT);
    return new Promise((resolve) => this.outgoing.push({ systemId, dueAt: now, fields, kind: 'receipt', onAck: resolve }));
  }

  /** Sends one deliver_sm with exactly these fields (malformed ones included); resolves with the ESME's command_status. */
  injectPdu(fields: Record<string, unknown>, systemId = this.anyBoundSystemId()): Promise<number> {
    if (systemId === undefined) return Promise.reject(new Error('no receiver is bound'));
    return new Promise((resolve) => this.outgoing.push({ systemId, dueAt: this.clock.now(), fields, kind: 'inbound', once: resolve }));
  }

  stats(): { binds: number; bindsByMode: Record<string, number>; submits: number; receiptsSent: number; receiptsPending: number; inboundSent: number; throttled: number } {
    const bindsByMode: Record<string, number> = {};
    let binds = 0;
    for (const state of this.sessions.values()) {
      if (!state.mode) continue;
      binds++;
      bindsByMode[state.mode] = (bindsByMode[state.mode] ?? 0) + 1;
    }
    return {
      binds,
      bindsByMode,
      submits: this.counts.submits,
      receiptsSent: this.outgoing.sent.receipt,
      receiptsPending: this.outgoing.pending,
      inboundSent: this.outgoing.sent.inbound,
      throttled: this.counts.throttled,
    };
  }

  private anyBoundSystemId(): string | undefined {
    for (const state of this.sessions.values()) if (state.mode === 'receiver' || state.mode === 'transceiver') return state.systemId;
    return undefined;
  }

  private accept(session: SmppSocketSession): void {
    const state: SessionState = { systemId: '', mode: undefined, windowStart: 0, windowCount: 0, corked: false };
    this.sessions.set(session, state);
    session.on('error', () => session.destroy());
    session.socket.once('close', () => {
      this.sessions.delete(session);
      this.outgoing.removeReceiver(session);
    });
    session.on('pdu', (request: Pdu) => {
      // What was read before a disconnect fault dropped the connection is never seen, as on a real SMSC.
      if (request.isResponse() || session.socket.destroyed) return;
      this.corkUntilNextTick(session, state);
      switch (request.command) {
        case 'bind_transceiver':
        case 'bind_transmitter':
        case 'bind_receiver':
          return this.bind(session, state, request);
        case 'submit_sm':
        case 'data_sm':
          return this.submit(session, state, request);
        case 'enquire_link':
          return void session.send(request.response());
        case 'unbind':
          return void session.send(request.response(), undefined, () => session.close());
        default: {
          const refusal = refusalOf(request);
          if (refusal) session.send(refusal);
        }
      }
    });
  }

  private bind(session: SmppSocketSession, state: SessionState, request: Pdu): void {
    const systemId = String(request.system_id ?? '');
    const password = String(request.password ?? '');
    let status: number = STATUS.ESME_ROK;
    if (state.mode) status = STATUS.ESME_RALYBND;
    else if (this.options.faults.refuseBinds) status = STATUS.ESME_RBINDFAIL;
    else if (this.options.accounts) {
      const account = this.options.accounts.find((a) => a.systemId === systemId);
      status = !account ? STATUS.ESME_RINVSYSID : account.password !== password ? STATUS.ESME_RINVPASWD : STATUS.ESME_ROK;
    }
    if (status !== STATUS.ESME_ROK) {
      session.send(request.response({ command_status: status }));
      return;
    }
    state.systemId = systemId;
    state.mode = request.command.slice('bind_'.length) as BindMode;
    session.send(request.response({ system_id: 'SwitchboardSim' }));
    if (state.mode !== 'transmitter') this.outgoing.addReceiver(session, systemId);
    this.emit('bind', { systemId, mode: state.mode });
  }

  private submit(session: SmppSocketSession, state: SessionState, request: Pdu): void {
    const answer = (fields: Record<string, unknown>): void => {
      const delay = this.options.faults.responseDelayMs;
      if (delay) this.clock.setTimer(delay, () => session.send(request.response(fields)));
      else session.send(request.response(fields));
    };
    if (!state.mode || state.mode === 'receiver') return answer({ command_status: STATUS.ESME_RINVBNDSTS });
    const faults = this.options.faults;
    if (faults.disconnectAfterSubmits !== undefined) {
      if (faults.disconnectAfterSubmits <= 0) {
        delete faults.disconnectAfterSubmits;
        this.disconnectAll();
        return;
      }
      faults.disconnectAfterSubmits--;
    }
    const refusal = faultRefusal(this.options.faults, state, this.counts, this.clock);
    if (refusal !== undefined) return answer({ command_status: refusal });
    const destination = String(request.destination_addr ?? '');
    const outcome = decideOutcome(this.options.rules, destination);
    if (outcome.submitStatus !== 0) return answer({ command_status: outcome.submitStatus });
    const id = this.nextId++;
    this.counts.submits++;
    answer({ message_id: this.formatId(id, this.options.idFormat) });
    const fields = request as unknown as Record<string, unknown>;
    if (this.options.keepMessages) this.messages.add(state.systemId, fields, this.formatId(id, this.options.idFormat));
    this.emit('submit', fields);
    this.scheduleReceipts(session, state.systemId, fields, this.formatId(id, this.options.receiptIdFormat ?? this.options.idFormat), outcome);
  }

  /** registered_delivery 1: a receipt whatever the outcome; 2: only on failure; 0 or 3: none. */
  private scheduleReceipts(session: SmppSocketSession, systemId: string, submit: Record<string, unknown>, receiptId: string, outcome: Outcome): void {
    const avoid = this.options.receiptsOnOtherBind ? { avoid: session } : {};
    const wanted = Number(submit.registered_delivery ?? 0) & 0x03;
    if (outcome.noReceipt || !(wanted === 1 || (wanted === 2 && outcome.stat !== 'DELIVRD'))) return;
    const style = this.options.receiptStyle;
    const excerpt = style === 'tlv' ? '' : receiptExcerpt(decodeInboundPart(submit, this.options.gsm7Packing === 'packed').text);
    const now = this.clock.now();
    if (this.options.intermediate && (Number(submit.registered_delivery ?? 0) & 0x10) !== 0) {
      const fields = receiptFields(submit, { id: receiptId, stat: 'ENROUTE', err: 0, submittedAt: now, doneAt: now, excerpt }, style, ESM_CLASS.INTERMEDIATE_NOTIFICATION);
      this.outgoing.push({ systemId, dueAt: now, kind: 'receipt', fields, ...avoid });
    }
    const dueAt = now + (outcome.delayMs ?? this.options.receiptDelayMs);
    const fields = receiptFields(submit, { id: receiptId, stat: outcome.stat, err: outcome.err, submittedAt: now, doneAt: dueAt, excerpt }, style, ESM_CLASS.MC_DELIVERY_RECEIPT);
    this.outgoing.push({ systemId, dueAt, kind: 'receipt', fields, ...avoid });
  }

  private corkUntilNextTick(session: SmppSocketSession, state: SessionState): void {
    if (state.corked) return;
    state.corked = true;
    session.socket.cork();
    process.nextTick(() => {
      state.corked = false;
      session.socket.uncork();
    });
  }

  private formatId(id: number, format: 'hex' | 'decimal'): string {
    return format === 'hex' ? id.toString(16).toUpperCase() : String(id);
  }
}
