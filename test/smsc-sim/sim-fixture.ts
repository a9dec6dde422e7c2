import type { ConnectionOptions } from 'node:tls';
import { afterEach } from 'node:test';
import { ManualClock, systemClock } from '../../src/core/clock.js';
import { connectSession, pdu, type Pdu, type SmppSocketSession } from '../../src/network/smpp/codec.js';
import { SmscSimulator, type SmscSimulatorOptions } from '../../src/smsc-sim/simulator.js';

export { DELIVERY_TICK_MS } from '../../src/smsc-sim/outgoing-queue.js';
export { advanceUntil, advanceUntilSettled } from '../helpers/clock-driving.js';
export { eventually } from '../helpers/server.js';
export { delivered, passDeliveryTick } from '../helpers/smsc.js';

/** A bare ESME: sends requests, keeps what the SMSC delivers, and acknowledges each deliver_sm. */
export class Client {
  readonly delivered: Pdu[] = [];
  /** command_status to answer deliver_sm with (ESME_ROK unless a test refuses them). */
  answerStatus = 0;

  private constructor(readonly session: SmppSocketSession) {
    session.on('error', () => undefined);
    session.on('deliver_sm', (request: Pdu) => {
      this.delivered.push(request);
      session.send(request.response({ command_status: this.answerStatus }));
    });
  }

  /** Connects within two seconds of real time: the simulator's clock is the one under test. */
  static async connect(port: number, tls?: ConnectionOptions): Promise<Client> {
    return new Client(await connectSession({ host: '127.0.0.1', port, connectTimeoutMs: 2000, clock: systemClock, ...(tls ? { tls } : {}) }));
  }

  request(command: string, fields: Record<string, unknown> = {}): Promise<Pdu> {
    return new Promise((resolve) => this.session.send(pdu(command, fields), resolve));
  }

  /** Resolves once the SMSC answers an enquire_link: whatever it wrote before has arrived by then. */
  async roundTrip(): Promise<void> {
    await this.request('enquire_link');
  }

  /** Resolves when the SMSC closes the connection. */
  closed(): Promise<void> {
    return new Promise((resolve) => (this.session.socket.destroyed ? resolve() : this.session.socket.once('close', () => resolve())));
  }
}

/**
 * Simulators and clients started in a test, stopped after it. Call once at the top of a describe
 * block (it registers an afterEach there).
 */
export function simFixture(): {
  /** A simulator on a ManualClock of its own: its receipts, retries and delays wait for the test to move it. */
  simulator(options?: Partial<SmscSimulatorOptions>): Promise<{ sim: SmscSimulator; port: number; clock: ManualClock }>;
  client(port: number, tls?: ConnectionOptions): Promise<Client>;
  bound(port: number, mode?: 'transceiver' | 'transmitter' | 'receiver', systemId?: string): Promise<Client>;
  onCleanup(cleanup: () => Promise<void>): void;
} {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  const client = async (port: number, tls?: ConnectionOptions): Promise<Client> => {
    const c = await Client.connect(port, tls);
    cleanups.push(async () => c.session.destroy());
    return c;
  };
  return {
    async simulator(options = {}) {
      const clock = new ManualClock();
      const sim = new SmscSimulator({ port: 0, ...options }, clock);
      const { port } = await sim.start();
      cleanups.push(() => sim.stop());
      return { sim, port, clock };
    },
    client,
    async bound(port, mode = 'transceiver', systemId = 'sb') {
      const c = await client(port);
      const response = await c.request(`bind_${mode}`, { system_id: systemId, password: 'pw' });
      if (response.command_status !== 0) throw new Error(`bind_${mode} refused: ${response.command_status}`);
      return c;
    },
    onCleanup: (cleanup) => void cleanups.push(cleanup),
  };
}

/** The text of a receipt or MO deliver_sm, as Latin-1. */
export function shortText(request: Pdu): string {
  return (request.short_message as Buffer).toString('latin1');
}
