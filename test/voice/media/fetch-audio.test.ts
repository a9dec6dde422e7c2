import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AudioFetchError, fetchAudio } from '../../../src/voice/media/fetch-audio.js';

const AUDIO = new Uint8Array(5000).map((_, i) => (i * 31) % 256);
const options = { maxBytes: 10_000, timeoutMs: 5000 };

function route(request: IncomingMessage, response: ServerResponse, base: string): void {
  const path = request.url ?? '/';
  const hops = /^\/hops\/(\d+)$/.exec(path);
  if (path === '/prompt.wav') {
    response.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': AUDIO.length }).end(AUDIO);
  } else if (hops) {
    const left = Number(hops[1]);
    response.writeHead(left === 0 ? 200 : 302, left === 0 ? {} : { Location: `/hops/${left - 1}` }).end(left === 0 ? AUDIO : undefined);
  } else if (path === '/to-credentials') {
    response.writeHead(301, { Location: `${base.replace('http://', 'http://user:secret@')}/prompt.wav` }).end();
  } else if (path === '/to-ftp') {
    response.writeHead(307, { Location: 'ftp://example.com/prompt.wav' }).end();
  } else if (path === '/declared-large') {
    response.writeHead(200, { 'Content-Length': 20_000 }).end(new Uint8Array(20_000));
  } else if (path === '/streamed-large') {
    // No Content-Length: chunked, so only counting the bytes can stop it.
    response.writeHead(200);
    for (let i = 0; i < 30; i++) response.write(new Uint8Array(1000));
    response.end();
  } else if (path === '/exact') {
    response.writeHead(200).end(new Uint8Array(options.maxBytes));
  } else if (path === '/silent') {
    // Never answers.
  } else if (path === '/stalls') {
    response.writeHead(200, { 'Content-Length': 4000 });
    response.write(new Uint8Array(1000));
  } else {
    response.writeHead(404).end('no such prompt');
  }
}

const failure = (reason: string) => (error: unknown): boolean => {
  assert.ok(error instanceof AudioFetchError, `an AudioFetchError, not ${String(error)}`);
  assert.equal(error.message, reason);
  return true;
};

describe('fetchAudio', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((request, response) => route(request, response, base));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('returns the bytes of a URL', async () => {
    assert.deepEqual(await fetchAudio(`${base}/prompt.wav`, options), AUDIO);
    assert.equal((await fetchAudio(`${base}/exact`, options)).length, options.maxBytes, 'exactly the cap is allowed');
  });

  it('answers a status that is not 2xx with the status', async () => {
    await assert.rejects(fetchAudio(`${base}/missing.wav`, options), failure('HTTP 404'));
  });

  it('follows up to three redirects, checking each target', async () => {
    assert.deepEqual(await fetchAudio(`${base}/hops/3`, options), AUDIO);
    await assert.rejects(fetchAudio(`${base}/hops/4`, options), failure('more than 3 redirects'));
    await assert.rejects(fetchAudio(`${base}/to-credentials`, options), failure('URL must not contain credentials'));
    await assert.rejects(fetchAudio(`${base}/to-ftp`, options), failure('URL must be http or https'));
  });

  it('refuses more bytes than allowed, declared or streamed', async () => {
    await assert.rejects(fetchAudio(`${base}/declared-large`, options), failure('larger than 10000 bytes'));
    await assert.rejects(fetchAudio(`${base}/streamed-large`, options), failure('larger than 10000 bytes'));
  });

  it('gives up on a server that does not answer, or stops sending', async () => {
    await assert.rejects(fetchAudio(`${base}/silent`, { ...options, timeoutMs: 200 }), failure('timed out after 200 ms'));
    await assert.rejects(fetchAudio(`${base}/stalls`, { ...options, timeoutMs: 200 }), failure('timed out after 200 ms'));
  });

  it('reports a connection that cannot be made', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(fetchAudio(`http://127.0.0.1:${port}/prompt.wav`, options), failure('connection failed: ECONNREFUSED'));
  });

  it('refuses URLs that are not http(s), carry credentials or are not URLs', async () => {
    await assert.rejects(fetchAudio('ftp://127.0.0.1/prompt.wav', options), failure('URL must be http or https'));
    await assert.rejects(fetchAudio('file:///etc/passwd', options), failure('URL must be http or https'));
    await assert.rejects(fetchAudio(`${base.replace('http://', 'http://user:pw@')}/prompt.wav`, options), failure('URL must not contain credentials'));
    await assert.rejects(fetchAudio('not a url', options), failure('not a valid URL'));
  });
});
