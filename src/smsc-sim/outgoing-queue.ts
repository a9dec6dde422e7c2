import type { Clock, Timer } from '../core/clock.js';
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
  /** Delivered on another receiver than this session while one is bound (a receipt, away from the bind that submitted). */
  avoid?: SmppSocketSession;
  /** Shared by the parts of one message: each goes on another receiver than the part before it, while one is bound. */
  spread?: { last?: SmppSocketSession };
}

interface Receiver {
  session: SmppSocketSession;
  systemId: string;
  /** Sent and not yet answered, oldest first, with when each was sent. */
  inFlight: Map<Outgoing, number>;
}

/** Deliveries are written in batches this often at most, so a busy simulator writes few, large chunks. */
export const DELIVERY_TICK_MS = 5;

/**
 * What the simulated SMSC must deliver, in due order, to receivers bound with the right system id
 * (round robin). Like a real SMSC it stores what it cannot deliver yet — nobody bound, not
 * acknowledged in time, refused, the connection dropped — and tries again. One timer of the
 * simulator's clock drives all of it (due deliveries and overdue acknowledgements), never one timer
 * per message.
 */
export class OutgoingQueue {
  /** Sorted by dueAt from `head` on; the consumed front is dropped now and then, not on every flush. */
  private due: Outgoing[] = [];
  private head = 0;
  /** Due, but no usable receiver with that system id is bound: released when one binds. */
  private readonly parked = new Map<string, Outgoing[]>();
  private readonly receivers: Receiver[] = [];
  private next = 0;
  private timer: Timer | undefined;
  private timerAt = Infinity;
  private stopped = false;
  readonly sent = { receipt: 0, inbound: 0 };

  constructor(
    private readonly retryMs: number,
    private readonly clock: Clock,
  ) {}

  get pending(): number {
    let count = this.due.length - this.head;
    for (const items of this.parked.values()) count += items.length;
    for (const receiver of this.receivers) count += receiver.inFlight.size;
    return count;
  }

  push(item: Outgoing): void {
    this.insert(item);
    this.schedule(item.dueAt);
  }

  addReceiver(session: SmppSocketSession, systemId: string): void {
    this.receivers.push({ session, systemId, inFlight: new Map() });
    const parked = this.parked.get(systemId);
    if (!parked) return;
    this.parked.delete(systemId);
    for (const item of parked) this.push(item);
  }

  /** The session is gone: what it did not acknowledge is delivered again. */
  removeReceiver(session: SmppSocketSession): void {
    const index = this.receivers.findIndex((r) => r.session === session);
    if (index < 0) return;
    const [receiver] = this.receivers.splice(index, 1);
    const now = this.clock.now();
    for (const item of receiver!.inFlight.keys()) this.push({ ...item, dueAt: now });
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private insert(item: Outgoing): void {
    const last = this.due[this.due.length - 1];
    if (this.head === this.due.length || (last && last.dueAt <= item.dueAt)) {
      this.due.push(item);
      return;
    }
    let low = this.head;
    let high = this.due.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.due[mid]!.dueAt <= item.dueAt) low = mid + 1;
      else high = mid;
    }
    this.due.splice(low, 0, item);
  }

  /** Makes sure the one timer fires by `at` (but not sooner than a tick from now). */
  private schedule(at: number): void {
    if (this.stopped) return;
    const now = this.clock.now();
    const fireAt = Math.max(at, now + DELIVERY_TICK_MS);
    if (this.timer && this.timerAt <= fireAt) return;
    this.timer?.cancel();
    this.timerAt = fireAt;
    this.timer = this.clock.setTimer(fireAt - now, () => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.flush();
    });
  }

  private flush(): void {
    const now = this.clock.now();
    const corked = new Set<SmppSocketSession>();
    this.requeueOverdue(now);
    while (this.head < this.due.length && this.due[this.head]!.dueAt <= now) {
      const item = this.due[this.head++]!;
      const receiver = this.receiverFor(item);
      if (!receiver) {
        this.park(item);
        continue;
      }
      if (!corked.has(receiver.session)) {
        corked.add(receiver.session);
        receiver.session.socket.cork();
      }
      this.send(receiver, item, now);
    }
    for (const session of corked) session.socket.uncork();
    this.compact();
    this.scheduleNext();
  }

  /** Sent long ago and never answered: delivered again (the ESME may see it twice, as from a real SMSC). */
  private requeueOverdue(now: number): void {
    for (const receiver of this.receivers) {
      for (const [item, sentAt] of receiver.inFlight) {
        if (sentAt + this.retryMs > now) break;
        receiver.inFlight.delete(item);
        this.insert({ ...item, dueAt: now });
      }
    }
  }

  private compact(): void {
    if (this.head === this.due.length) {
      this.due = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.due.length) {
      this.due = this.due.slice(this.head);
      this.head = 0;
    }
  }

  private scheduleNext(): void {
    let at = this.head < this.due.length ? this.due[this.head]!.dueAt : Infinity;
    for (const receiver of this.receivers) {
      const oldest = receiver.inFlight.values().next();
      if (!oldest.done) at = Math.min(at, oldest.value + this.retryMs);
    }
    if (at !== Infinity) this.schedule(at);
  }

  private park(item: Outgoing): void {
    const items = this.parked.get(item.systemId);
    if (items) items.push(item);
    else this.parked.set(item.systemId, [item]);
  }

  /**
   * Round robin over receivers bound with the item's system id whose connection can still be written
   * to; the one the item should avoid only when it is the only one.
   */
  private receiverFor(item: Outgoing): Receiver | undefined {
    const avoid = item.avoid ?? item.spread?.last;
    let fallback: Receiver | undefined;
    for (let tries = 0; tries < this.receivers.length; tries++) {
      const receiver = this.receivers[this.next++ % this.receivers.length]!;
      if (receiver.systemId !== item.systemId || !receiver.session.socket.writable) continue;
      if (receiver.session !== avoid) return receiver;
      fallback = receiver;
    }
    return fallback;
  }

  private send(receiver: Receiver, item: Outgoing, now: number): void {
    receiver.inFlight.set(item, now);
    if (item.spread) item.spread.last = receiver.session;
    const written = receiver.session.send(pdu('deliver_sm', item.fields), (response: Pdu) => {
      if (!receiver.inFlight.delete(item)) return;
      if (item.once) return item.once(response.command_status);
      // Refused (e.g. ESME_RX_T_APPN: the ESME could not store it): delivered again a little later.
      if (response.command_status !== STATUS.ESME_ROK) return this.push({ ...item, dueAt: this.clock.now() + Math.min(1000, this.retryMs) });
      this.sent[item.kind]++;
      item.onAck?.();
    });
    if (!written) {
      receiver.inFlight.delete(item);
      this.park(item);
    }
  }
}
