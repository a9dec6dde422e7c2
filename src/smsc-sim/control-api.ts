import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulatorFaults } from './faults.js';
import type { SmscSimulator } from './simulator.js';

const MAX_BODY = 1_000_000;

/**
 * A small HTTP API to drive a running simulator from scripts: inject inbound messages, set faults,
 * drop connections, read what it received and its counters. Listens on the loopback only.
 */
export async function startControlApi(sim: SmscSimulator, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    handle(sim, request, response).catch((error: unknown) => reply(response, 400, { error: error instanceof Error ? error.message : String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${actual}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function handle(sim: SmscSimulator, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const route = `${request.method} ${new URL(request.url ?? '/', 'http://x').pathname}`;
  switch (route) {
    case 'GET /stats':
      return reply(response, 200, sim.stats());
    case 'GET /messages':
      return reply(response, 200, { results: sim.received() });
    case 'POST /inbound': {
      const body = (await readJson(request)) as { from?: unknown; to?: unknown; text?: unknown; split?: unknown; systemId?: unknown };
      if (typeof body.from !== 'string' || typeof body.to !== 'string' || typeof body.text !== 'string') throw new Error('from, to and text are required strings');
      if (body.split !== undefined && !['udh8', 'sar', 'payload'].includes(String(body.split))) throw new Error('split must be udh8, sar or payload');
      const message: Parameters<SmscSimulator['injectInbound']>[0] = { from: body.from, to: body.to, text: body.text };
      if (body.split !== undefined) message.split = body.split as 'udh8' | 'sar' | 'payload';
      if (typeof body.systemId === 'string') message.systemId = body.systemId;
      await sim.injectInbound(message);
      return reply(response, 200, { delivered: true });
    }
    case 'POST /receipt': {
      const body = (await readJson(request)) as { id?: unknown; stat?: unknown; err?: unknown };
      if (typeof body.id !== 'string' || typeof body.stat !== 'string') throw new Error('id and stat are required strings');
      if (body.err !== undefined && (typeof body.err !== 'number' || !Number.isInteger(body.err) || body.err < 0)) throw new Error('err must be a non-negative integer');
      await sim.injectReceipt({ id: body.id, stat: body.stat.toUpperCase(), ...(typeof body.err === 'number' ? { err: body.err } : {}) });
      return reply(response, 200, { delivered: true });
    }
    case 'POST /faults': {
      const body = await readJson(request);
      if (typeof body !== 'object' || body === null) throw new Error('faults must be a JSON object');
      sim.setFaults(body as Partial<SimulatorFaults>);
      return reply(response, 200, { faults: sim.options.faults });
    }
    case 'POST /disconnect':
      sim.disconnectAll();
      return reply(response, 200, { disconnected: true });
    default:
      return reply(response, 404, { error: 'GET /stats, GET /messages, POST /inbound, POST /receipt, POST /faults, POST /disconnect' });
  }
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text === '' ? {} : JSON.parse(text);
  } catch {
    throw new Error('the body is not JSON');
  }
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
