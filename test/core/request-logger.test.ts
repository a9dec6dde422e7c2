import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { lazyRequestLogger } from '../../src/core/request-logger.js';

function capturingLogger(): { logger: pino.Logger; lines: Array<Record<string, unknown>>; children: () => number } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const server = pino({ level: 'info', redact: { paths: ['req.headers.authorization'], censor: '[redacted]' } }, stream);
  let made = 0;
  // Counts the children made from the server's logger, which itself stays untouched.
  const logger = new Proxy(server, {
    get(target, key, receiver) {
      if (key !== 'child') return Reflect.get(target, key, receiver) as unknown;
      return (...args: Parameters<pino.Logger['child']>) => {
        made++;
        return target.child(...args);
      };
    },
  });
  return { logger, lines, children: () => made };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('request logger', () => {
  it('is made on first use only, and then logs with the request id and the parent redaction', async () => {
    const { logger, lines, children } = capturingLogger();
    const requestLog = lazyRequestLogger(logger, { reqId: 'req-7' }, {});
    assert.equal(children(), 0, 'no child for a request that does not log');
    assert.equal(requestLog.level, 'info');
    requestLog.debug('below the level');
    requestLog.error({ req: { headers: { authorization: 'App secret' } } }, 'request failed');
    requestLog.warn('again');
    await flush();
    assert.equal(children(), 1, 'one child, made once');
    assert.deepEqual(
      lines.map((line) => [line.reqId, line.msg, (line.req as { headers?: { authorization?: string } } | undefined)?.headers?.authorization]),
      [
        ['req-7', 'request failed', '[redacted]'],
        ['req-7', 'again', undefined],
      ],
    );
  });

  it('gives children that carry the request id, and follows a level set on it', async () => {
    const { logger, lines } = capturingLogger();
    const requestLog = lazyRequestLogger(logger, { reqId: 'req-8' }, {});
    requestLog.level = 'debug';
    requestLog.debug('now shown');
    requestLog.child({ part: 'body' }).info('from a child');
    await flush();
    assert.equal(requestLog.level, 'debug');
    assert.equal(logger.level, 'info', 'the server logger keeps its level');
    assert.deepEqual(
      lines.map((line) => [line.reqId, line.part, line.msg]),
      [
        ['req-8', undefined, 'now shown'],
        ['req-8', 'body', 'from a child'],
      ],
    );
  });
});
