import { systemClock } from '../../src/core/clock.js';
import { SmscSimulator, type SmscSimulatorOptions } from '../../src/smsc-sim/simulator.js';

export interface TestSmsc {
  sim: SmscSimulator;
  port: number;
  /** An SWITCHBOARD_SMPP_URL for it, with quick reconnects; `query` adds bind options. */
  url(query?: string, scheme?: 'smpp' | 'smpps'): string;
  stop(): Promise<void>;
}

/** A simulator on an ephemeral port; receipts at once unless told otherwise. */
export async function startSmsc(options: Partial<SmscSimulatorOptions> = {}): Promise<TestSmsc> {
  const sim = new SmscSimulator({ host: '127.0.0.1', port: 0, receiptDelayMs: 0, ...options }, systemClock);
  const { port } = await sim.start();
  return {
    sim,
    port,
    url: (query = '', scheme = 'smpp') =>
      `${scheme}://test:secret@127.0.0.1:${port}?reconnectMinSeconds=0.05&reconnectMaxSeconds=0.2${query ? `&${query}` : ''}`,
    stop: () => sim.stop(),
  };
}
