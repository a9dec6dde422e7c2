import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { eventually, startTestServer } from '../helpers/server.js';

/** A raw keep-alive connection, so requests can be pipelined across the start of a shutdown. */
interface Connection {
  socket: net.Socket;
  received: () => string;
}

async function rawConnection(url: string): Promise<Connection> {
  const { port } = new URL(url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
  return { socket, received: () => received };
}

const refusesConnections = async (url: string): Promise<true | undefined> => {
  try {
    await fetch(`${url}/health`);
    return undefined;
  } catch {
    return true;
  }
};

describe('shutdown', () => {
  it('finishes requests in flight and answers those arriving after them with 503 in the family envelope', async () => {
    const server = await startTestServer();
    const body = JSON.stringify({ messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'in flight' } }] });
    const headers = (method: string, path: string, extra = '') =>
      `${method} ${path} HTTP/1.1\r\nHost: switchboard\r\nAuthorization: App ${server.apiKey}\r\n${extra}\r\n`;
    const connections = [await rawConnection(server.url), await rawConnection(server.url)];
    for (const { socket, received } of connections) {
      // "100 Continue" says the server has read the headers: the request is in flight, its connection busy.
      socket.write(headers('POST', '/sms/3/messages', `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n`));
      await eventually(async () => (received().includes('100 Continue') ? true : undefined));
    }

    const closed = server.close();
    // The listener closes right after the shutdown has begun.
    await eventually(() => refusesConnections(server.url));
    const [v3, legacy] = connections as [Connection, Connection];
    v3.socket.write(body + headers('GET', '/sms/3/reports') + headers('GET', '/sms/3/logs'));
    legacy.socket.write(body + headers('GET', '/sms/1/reports'));
    await closed;

    const answers = [];
    for (const { socket, received } of connections) {
      await eventually(async () => (socket.readableEnded || socket.destroyed ? true : undefined));
      const responses = received().split(/(?=HTTP\/1\.1 )/).filter((r) => !r.startsWith('HTTP/1.1 100'));
      assert.match(responses[0]!, /^HTTP\/1\.1 200 /, 'the request in flight is answered');
      assert.match(responses[0]!, /"PENDING_ACCEPTED"/);
      assert.match(responses[1]!, /^HTTP\/1\.1 503 /);
      assert.match(responses[1]!, /\r\nretry-after: 1\r\n/i);
      assert.equal(responses.length, 2, 'the 503 closes the connection: nothing after it is read');
      answers.push(JSON.parse(responses[1]!.slice(responses[1]!.indexOf('\r\n\r\n') + 4)));
      socket.destroy();
    }
    assert.deepEqual(answers, [
      {
        errorCode: 'E503',
        description: 'Service is unavailable: the server is shutting down.',
        action: 'Retry the request shortly.',
        violations: [],
        resources: [],
      },
      { requestError: { serviceException: { messageId: 'SERVICE_UNAVAILABLE', text: 'Service unavailable. Retry shortly.' } } },
    ]);
  });
});
