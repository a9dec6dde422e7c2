import { systemClock, type Clock, type ManualClock } from '../../src/core/clock.js';
import { DELIVERY_TICK_MS } from '../../src/smsc-sim/outgoing-queue.js';
import { SmscSimulator, type SmscSimulatorOptions } from '../../src/smsc-sim/simulator.js';

export interface TestSmsc {
  sim: SmscSimulator;
  port: number;
  /** An SWITCHBOARD_SMPP_URL for it, with quick reconnects; `query` adds bind options. */
  url(query?: string, scheme?: 'smpp' | 'smpps'): string;
  stop(): Promise<void>;
}

/** A simulator on an ephemeral port; receipts at once unless told otherwise. */
export async function startSmsc(options: Partial<SmscSimulatorOptions> = {}, clock: Clock = systemClock): Promise<TestSmsc> {
  const sim = new SmscSimulator({ host: '127.0.0.1', port: 0, receiptDelayMs: 0, ...options }, clock);
  const { port } = await sim.start();
  return {
    sim,
    port,
    url: (query = '', scheme = 'smpp') =>
      `${scheme}://test:secret@127.0.0.1:${port}?reconnectMinSeconds=0.05&reconnectMaxSeconds=0.2${query ? `&${query}` : ''}`,
    stop: () => sim.stop(),
  };
}

/** A simulator on a ManualClock writes what is due (a receipt, an inbound message) once its clock passes the delivery tick. */
export function passDeliveryTick(clock: ManualClock): void {
  clock.advance(DELIVERY_TICK_MS);
}

/** Passes the delivery tick for a delivery just queued, and returns what waits for its acknowledgement. */
export function delivered<T>(clock: ManualClock, queued: Promise<T>): Promise<T> {
  passDeliveryTick(clock);
  return queued;
}
