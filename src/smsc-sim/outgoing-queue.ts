import type { Pdu, SmppSocketSession } from '../network/smpp/codec.js';
import { pdu, STATUS } from '../network/smpp/codec.js';

/** A deliver_sm the SMSC owes a bound receiver: a receipt or a mobile-originated message. */
export interface Outgoing {
  systemId: string;
  dueAt: number;
  fields: Record<string, unknown>;
  kind: 'receipt' | 'inbound';
  /** Called once the ESME acknowledged it with ESME_ROK. */
  onAck?: () => void;
  /** Sent once whatever the answer (no retry), which is passed here. */
  once?: (commandStatus: number) => void;
}

interface Receiver {
  session: SmppSocketSession;
  systemId: string;
  inFlight: Set<Outgoing>;
}

/**
 * What the simulated SMSC must deliver, in due order, to receivers bound with the right system id
 * (round robin). Like a real SMSC it stores what it cannot deliver yet — nobody bound, not
 * acknowledged, the connection dropped — and tries again. One timer drives it, not one per message.
 */
export class OutgoingQueue {
  private due: Outgoing[] = [];
  private readonly receivers: Receiver[] = [];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  sent = { receipt: 0, inbound: 0 };

  constructor(private readonly retryMs: number) {}

  get pending(): number {
    let inFlight = 0;
    for (const receiver of this.receivers) inFlight += receiver.inFlight.size;
    return this.due.length + inFlight;
  }

  push(item: Outgoing): void {
    const last = this.due[this.due.length - 1];
    if (!last || last.dueAt <= item.dueAt) this.due.push(item);
    else this.due.splice(this.insertionIndex(item.dueAt), 0, item);
    this.schedule(0);
  }

  addReceiver(session: SmppSocketSession, systemId: string): void {
    this.receivers.push({ session, systemId, inFlight: new Set() });
    this.schedule(0);
  }

  /** The session is gone: what it did not acknowledge is delivered again. */
  removeReceiver(session: SmppSocketSession): void {
    const index = this.receivers.findIndex((r) => r.session === session);
    if (index < 0) return;
    const [receiver] = this.receivers.splice(index, 1);
    for (const item of receiver!.inFlight) this.push({ ...item, dueAt: Date.now() });
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private insertionIndex(dueAt: number): number {
    let low = 0;
    let high = this.due.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.due[mid]!.dueAt <= dueAt) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private schedule(delay: number): void {
    if (this.timer || this.due.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, Math.max(delay, 1));
  }

  private flush(): void {
    const now = Date.now();
    const waiting: Outgoing[] = [];
    let index = 0;
    for (; index < this.due.length; index++) {
      const item = this.due[index]!;
      if (item.dueAt > now) break;
      const receiver = this.receiverFor(item.systemId);
      if (!receiver) waiting.push(item);
      else this.send(receiver, item);
    }
    this.due = waiting.length > 0 ? [...waiting, ...this.due.slice(index)] : this.due.slice(index);
    const first = this.due.find((item) => item.dueAt > now) ?? (waiting.length > 0 ? undefined : this.due[0]);
    if (first) this.schedule(first.dueAt - now);
  }

  private receiverFor(systemId: string): Receiver | undefined {
    for (let tries = 0; tries < this.receivers.length; tries++) {
      const receiver = this.receivers[this.next++ % this.receivers.length]!;
      if (receiver.systemId === systemId) return receiver;
    }
    return undefined;
  }

  private send(receiver: Receiver, item: Outgoing): void {
    receiver.inFlight.add(item);
    const request = pdu('deliver_sm', item.fields);
    const timer = setTimeout(() => retry(0), this.retryMs);
    timer.unref();
    const retry = (delay: number): void => {
      if (!receiver.inFlight.delete(item)) return;
      this.push({ ...item, dueAt: Date.now() + delay });
    };
    const written = receiver.session.send(request, (response: Pdu) => {
      clearTimeout(timer);
      if (item.once) {
        receiver.inFlight.delete(item);
        item.once(response.command_status);
        return;
      }
      // Refused (e.g. ESME_RX_T_APPN: the ESME could not store it): deliver it again a little later.
      if (response.command_status !== STATUS.ESME_ROK) return retry(Math.min(1000, this.retryMs));
      if (!receiver.inFlight.delete(item)) return;
      this.sent[item.kind]++;
      item.onAck?.();
    });
    if (!written) {
      clearTimeout(timer);
      retry(0);
    }
  }
}
