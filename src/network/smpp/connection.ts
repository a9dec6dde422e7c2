import type { Logger } from '../../logger.js';
import { repeatEvery, type Clock, type Timer } from '../../core/clock.js';
import { connectSession, pdu, STATUS, type Pdu, type SmppSocketSession } from './codec.js';
import { ConnectionStats } from './connection-stats.js';
import { SendPacing } from './send-pacing.js';
import { answerSmscRequest } from './smsc-requests.js';
import type { SmscOptions } from './smsc-options.js';
import { expiredAnswer, SubmitQueue, type QueuedSubmit, type SubmitAnswer } from './submit-queue.js';

export type ConnectionRole = 'transceiver' | 'transmitter' | 'receiver';
export type ConnectionState = 'down' | 'connecting' | 'binding' | 'bound' | 'stopped';

export interface ConnectionDeps {
  options: SmscOptions;
  role: ConnectionRole;
  /** e.g. "operator-a/1/tx", for logs and metrics. */
  label: string;
  log: Logger;
  /** Measures every wait and deadline: back-off, pacing, response and connect timeouts, enquire_link, unbind. */
  clock: Clock;
  /** Handles deliver_sm and data_sm; resolves with the command_status to answer with. */
  onRequest(request: Pdu): Promise<number>;
  /** Called when the connection becomes bound or stops being bound. */
  onStateChange?(connection: SmppConnection): void;
}

interface InFlight {
  entry: QueuedSubmit | undefined;
  sentAt: number;
}

const UNBIND_WAIT_MS = 1_000;

/**
 * One SMPP connection to an SMSC, kept bound: connect (TCP or TLS), bind, enquire_link when idle,
 * reconnect with exponential backoff and jitter, and a window of outstanding submit_sm with an
 * optional messages-per-second limit. A submit waits in the queue until the connection is bound
 * and the window and rate allow it; one that was sent but not answered when the connection dropped
 * goes back to the head of the queue and is sent again after the reconnect. A submit that cannot
 * be answered before its deadline resolves as `unsent`/`lost`, and ESME_RTHROTTLED/RMSGQFUL make
 * the connection pause (growing back-off) and send the same PDU again, until the deadline.
 *
 * Deadlines are times of the deps' Clock, which also runs every timer here, so tests move time
 * instead of waiting for it; only the sockets are real.
 */
export class SmppConnection {
  readonly stats = new ConnectionStats();
  private session: SmppSocketSession | undefined;
  private current: ConnectionState = 'down';
  private readonly queue = new SubmitQueue();
  private readonly inFlight = new Map<number, InFlight>();
  private reconnectDelay: number;
  private reconnectTimer: Timer | undefined;
  private pumpTimer: Timer | undefined;
  private readonly watchdog: Timer;
  private readonly clock: Clock;
  private lastActivity: number;
  private readonly pacing: SendPacing;
  private closed: Promise<void> | undefined;

  constructor(private readonly deps: ConnectionDeps) {
    this.clock = deps.clock;
    this.lastActivity = this.clock.now();
    this.reconnectDelay = deps.options.reconnectMinMs;
    this.pacing = new SendPacing(deps.options.throughput);
    this.watchdog = repeatEvery(this.clock, Math.min(1000, Math.max(50, deps.options.responseTimeoutMs / 4)), () => this.checkTimeouts());
  }

  get state(): ConnectionState {
    return this.current;
  }

  get label(): string {
    return this.deps.label;
  }

  get canSubmit(): boolean {
    return this.deps.role !== 'receiver';
  }

  /** Submits waiting or awaiting their response. */
  get load(): number {
    return this.queue.size + this.inFlight.size;
  }

  get windowInUse(): number {
    return this.inFlight.size;
  }

  start(): void {
    if (this.current === 'stopped' || this.current !== 'down' || this.reconnectTimer) return;
    void this.connect();
  }

  /** Queues one submit_sm (its fields by SMPP names); resolves with the SMSC's answer or why there is none. */
  submit(fields: Record<string, unknown>, deadline: number): Promise<SubmitAnswer> {
    if (this.current === 'stopped') return Promise.resolve({ kind: 'unsent' });
    return new Promise((resolve) => {
      this.queue.push({ fields, deadline, resolve, sent: false });
      this.pump();
    });
  }

  /** Unbinds (waiting briefly for the answer) and closes; queued submits resolve as unsent. */
  async stop(): Promise<void> {
    if (this.current === 'stopped') return;
    const wasBound = this.current === 'bound';
    this.setState('stopped');
    this.watchdog.cancel();
    this.reconnectTimer?.cancel();
    this.pumpTimer?.cancel();
    this.queue.failAll({ kind: 'unsent' });
    const session = this.session;
    if (!session) return;
    if (wasBound) {
      await new Promise<void>((resolve) => {
        const timer = this.clock.setTimer(UNBIND_WAIT_MS, resolve);
        session.once('unbind_resp', () => {
          timer.cancel();
          resolve();
        });
        if (!session.send(pdu('unbind'))) resolve();
      });
    }
    session.destroy();
    await this.closed;
  }

  private async connect(): Promise<void> {
    const { options, log, label } = this.deps;
    this.setState('connecting');
    let session: SmppSocketSession;
    try {
      const tlsOptions = options.tls ? { rejectUnauthorized: options.tls.rejectUnauthorized, ...(options.tls.ca ? { ca: options.tls.ca } : {}) } : undefined;
      session = await connectSession({
        host: options.host,
        port: options.port,
        connectTimeoutMs: options.connectTimeoutMs,
        clock: this.clock,
        ...(tlsOptions ? { tls: tlsOptions } : {}),
      });
    } catch (error) {
      log.warn({ err: error, bind: label }, 'SMPP connection failed');
      this.stats.connectFailures++;
      this.scheduleReconnect();
      return;
    }
    if (this.current === 'stopped') {
      session.destroy();
      return;
    }
    this.attach(session);
    this.setState('binding');
    const bind = pdu(`bind_${this.deps.role}`, {
      system_id: options.systemId,
      password: options.password,
      system_type: options.systemType,
      interface_version: 0x34,
    });
    this.sendControl(bind);
  }

  private attach(session: SmppSocketSession): void {
    this.session = session;
    this.lastActivity = this.clock.now();
    this.closed = new Promise((resolve) => session.socket.once('close', () => resolve()));
    session.on('pdu', (received: Pdu) => this.onPdu(session, received));
    session.on('error', (error: Error) => {
      this.deps.log.warn({ err: error, bind: this.deps.label }, 'SMPP connection error');
      session.destroy();
    });
    session.socket.once('close', () => this.onClose(session));
  }

  private onPdu(session: SmppSocketSession, received: Pdu): void {
    this.lastActivity = this.clock.now();
    if (received.isResponse()) {
      this.onResponse(received);
      return;
    }
    if (answerSmscRequest(session, received, this.deps.onRequest)) this.stats.requestsReceived++;
  }

  private onResponse(response: Pdu): void {
    const flight = this.inFlight.get(response.sequence_number);
    if (!flight) return;
    this.inFlight.delete(response.sequence_number);
    if (response.command.startsWith('bind_')) {
      this.onBindResponse(response);
      return;
    }
    const entry = flight.entry;
    if (!entry) return;
    const status = response.command === 'generic_nack' && response.command_status === 0 ? STATUS.ESME_RSYSERR : response.command_status;
    if (status === STATUS.ESME_RTHROTTLED || status === STATUS.ESME_RMSGQFUL) {
      this.stats.throttled++;
      const now = this.clock.now();
      this.pacing.throttled(now);
      entry.throttled = true;
      if (now < entry.deadline) this.queue.unshift(entry);
      else entry.resolve({ kind: 'throttled' });
    } else {
      this.pacing.answered();
      if (status === STATUS.ESME_ROK) this.stats.submitsOk++;
      else this.stats.countError(status);
      entry.resolve({ kind: 'answered', status, messageId: typeof response.message_id === 'string' ? response.message_id : '' });
    }
    this.pump();
  }

  private onBindResponse(response: Pdu): void {
    if (response.command_status !== STATUS.ESME_ROK) {
      this.deps.log.error({ bind: this.deps.label, commandStatus: response.command_status }, 'SMPP bind refused');
      this.stats.bindFailures++;
      this.session?.destroy();
      return;
    }
    this.reconnectDelay = this.deps.options.reconnectMinMs;
    this.stats.binds++;
    this.setState('bound');
    this.deps.log.info({ bind: this.deps.label }, 'SMPP bound');
    this.pump();
  }

  private onClose(session: SmppSocketSession): void {
    if (this.session !== session) return;
    this.session = undefined;
    // Submits sent and not answered go out again after the reconnect (or end at their deadline).
    const unanswered: QueuedSubmit[] = [];
    for (const flight of this.inFlight.values()) if (flight.entry) unanswered.push(flight.entry);
    this.inFlight.clear();
    this.queue.unshiftAll(unanswered);
    if (this.current === 'stopped') {
      this.queue.failAll({ kind: 'lost' });
      return;
    }
    if (this.current === 'bound') this.deps.log.warn({ bind: this.deps.label, unanswered: unanswered.length }, 'SMPP connection lost');
    this.stats.disconnects++;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.current === 'stopped') return;
    this.setState('down');
    const jitter = 0.8 + Math.random() * 0.4;
    const delay = Math.round(this.reconnectDelay * jitter);
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, this.deps.options.reconnectMaxMs);
    this.reconnectTimer = this.clock.setTimer(delay, () => {
      this.reconnectTimer = undefined;
      void this.connect();
    });
  }

  /** Sends queued submits while bound, within the window, the rate limit and any throttling pause. */
  private pump(): void {
    if (this.current !== 'bound' || !this.session || this.pumpTimer) return;
    const { window } = this.deps.options;
    while (this.inFlight.size < window && this.queue.size > 0) {
      const now = this.clock.now();
      const wait = this.pacing.waitMs(now);
      if (wait > 0) {
        this.pumpTimer = this.clock.setTimer(Math.ceil(wait), () => {
          this.pumpTimer = undefined;
          this.pump();
        });
        return;
      }
      const entry = this.queue.shift()!;
      if (now >= entry.deadline) {
        entry.resolve(expiredAnswer(entry));
        continue;
      }
      this.pacing.sent(now);
      const request = pdu('submit_sm', entry.fields);
      let written: boolean;
      try {
        written = this.session.send(request);
      } catch (error) {
        // Fields the codec cannot write are a property of the message: it would fail again.
        this.deps.log.warn({ err: error, bind: this.deps.label }, 'submit_sm cannot be encoded');
        entry.resolve({ kind: 'answered', status: STATUS.ESME_RINVPARLEN, messageId: '' });
        continue;
      }
      if (!written) {
        this.queue.unshift(entry);
        return;
      }
      entry.sent = true;
      this.stats.submitsSent++;
      this.inFlight.set(request.sequence_number, { entry, sentAt: now });
    }
  }

  private sendControl(request: Pdu): void {
    if (!this.session?.send(request)) return;
    this.inFlight.set(request.sequence_number, { entry: undefined, sentAt: this.clock.now() });
  }

  /** Answers overdue → the link is broken; idle → enquire_link; queued submits past their deadline end. */
  private checkTimeouts(): void {
    const now = this.clock.now();
    this.queue.expire(now);
    const session = this.session;
    if (!session) return;
    const oldest = this.inFlight.values().next().value as InFlight | undefined;
    if (oldest && now - oldest.sentAt > this.deps.options.responseTimeoutMs) {
      this.deps.log.warn({ bind: this.deps.label }, 'SMPP response timed out; reconnecting');
      this.stats.timeouts++;
      session.destroy();
      return;
    }
    const enquire = this.deps.options.enquireLinkMs;
    if (this.current === 'bound' && enquire > 0 && now - this.lastActivity >= enquire) {
      this.lastActivity = now;
      this.sendControl(pdu('enquire_link'));
    }
  }

  private setState(state: ConnectionState): void {
    const was = this.current;
    this.current = state;
    if ((was === 'bound') !== (state === 'bound')) this.deps.onStateChange?.(this);
  }
}
