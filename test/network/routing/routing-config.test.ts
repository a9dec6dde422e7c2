import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ERROR, STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import type { Carrier, OutboundMessage } from '../../../src/network/carrier.js';
import { describeRouting } from '../../../src/network/routing/describe-routing.js';
import { PrefixRouter } from '../../../src/network/routing/prefix-router.js';
import { RouteFileError } from '../../../src/network/routing/route-file.js';
import { candidatesFor, loadRoutingConfig, type RouteRule } from '../../../src/network/routing/routing-config.js';
import { parseSmscUrl } from '../../../src/network/smpp/smsc-url.js';

const defaults = { name: 'smsc', inboundAccount: 'default' };

describe('SWITCHBOARD_SMPP_URL', () => {
  it('reads address, credentials (URL-decoded), TLS and every setting', () => {
    const options = parseSmscUrl(
      'smpps://sb%40x:p%3Ass@smsc.example.com?binds=3&mode=tx%2Brx&window=100&throughput=50&enquireLinkSeconds=15&longMessages=sar&gsm7Packing=packed&submitIdFormat=hex&receiptIdFormat=decimal&sourceTon=5&destNpi=0&tlsVerify=false&name=op-a&reconnectMinSeconds=0.5',
      'SWITCHBOARD_SMPP_URL',
      defaults,
    );
    assert.equal(options.name, 'op-a');
    assert.equal(options.host, 'smsc.example.com');
    assert.equal(options.port, 3550);
    assert.equal(options.systemId, 'sb@x');
    assert.equal(options.password, 'p:ss');
    assert.deepEqual(options.tls, { rejectUnauthorized: false });
    assert.equal(options.mode, 'transmitter+receiver');
    assert.equal(options.binds, 3);
    assert.equal(options.window, 100);
    assert.equal(options.throughput, 50);
    assert.equal(options.enquireLinkMs, 15_000);
    assert.equal(options.reconnectMinMs, 500);
    assert.equal(options.longMessages, 'sar');
    assert.equal(options.gsm7Packing, 'packed');
    assert.deepEqual(options.source, { ton: 5 });
    assert.deepEqual(options.destination, { npi: 0 });
    assert.equal(parseSmscUrl('smpp://a:b@h', 'X', defaults).port, 2775);
  });

  it('names the parameter and the allowed values in its errors, never the password', () => {
    const bad: Array<[string, RegExp]> = [
      ['smpp://a:secretpw@h?window=abc', /window must be an integer between 1 and 10000, got "abc"/],
      ['smpp://a:secretpw@h?longMessages=udh7', /longMessages must be one of udh8, udh16, sar, payload/],
      ['smpp://a:secretpw@h?windw=5', /unknown parameter "windw"/],
      ['smpp://a:secretpw@h?tlsVerify=false', /only applies to smpps/],
      ['http://a:secretpw@h', /must start with smpp:\/\/ or smpps:\/\//],
      ['smpp://h:2775', /no system id/],
      ['smpp://a:toolongpassword@h', /more than 8 characters/],
      ['smpp://a:secretpw@h?reconnectMinSeconds=10&reconnectMaxSeconds=1', /reconnectMaxSeconds/],
    ];
    for (const [url, message] of bad) {
      assert.throws(() => parseSmscUrl(url, 'SWITCHBOARD_SMPP_URL', defaults), (error: Error) => {
        assert.match(error.message, message);
        assert.doesNotMatch(error.message, /secretpw|toolongpassword/);
        return true;
      });
    }
  });
});

describe('route file', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-route-file-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const load = async (content: unknown, env: Record<string, string> = {}) => {
    const file = path.join(dir, `routes-${Math.random()}.json`);
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
    return loadRoutingConfig({ routesFile: file, defaultAccount: 'default' }, env);
  };

  it('reads SMSCs by URL or by fields (password from the environment) and their routes', async () => {
    const config = await load(
      {
        smscs: [
          { name: 'a', url: 'smpp://u:p@10.0.0.1:2775?binds=2', window: 99 },
          { name: 'b', host: 'smsc.b', systemId: 'sb', passwordEnv: 'B_PW', tls: true, tlsVerify: false, longMessages: 'udh16' },
        ],
        routes: [{ prefix: ['4479', '+4475'], smsc: 'a', priority: 1 }, { prefix: '*', smsc: 'b' }],
      },
      { B_PW: 'pw-b' },
    );
    assert.equal(config.smscs[0]!.binds, 2);
    assert.equal(config.smscs[0]!.window, 99, 'fields override the URL');
    assert.equal(config.smscs[1]!.password, 'pw-b');
    assert.equal(config.smscs[1]!.port, 3550);
    assert.deepEqual(config.smscs[1]!.tls, { rejectUnauthorized: false });
    assert.deepEqual(config.routes[0]!.prefixes, ['4479', '4475']);
    assert.deepEqual(config.routes[1], { prefixes: [''], smsc: 'b', priority: 100, order: 1 });
  });

  it('uses every SMSC for everything, in file order, when routes are omitted', async () => {
    const config = await load({ smscs: [{ name: 'a', url: 'smpp://u:p@h1' }, { name: 'b', url: 'smpp://u:p@h2' }] });
    assert.deepEqual(candidatesFor(config.routes, '123').map((r) => r.smsc), ['a', 'b']);
  });

  it('reports every problem with its JSON path', async () => {
    await assert.rejects(
      load({
        smscs: [
          { name: 'sandbox', url: 'smpp://u:p@h' },
          { name: 'a', host: 'h', systemId: 'x', windw: 3 },
          { name: 'a', url: 'smpp://u:p@h', port: 1 },
          { name: 'c', host: 'h', systemId: 'x', passwordEnv: 'MISSING' },
          { name: 'd', url: 'smpp://u:p@h', binds: 0 },
        ],
        routes: [{ prefix: '44x', smsc: 'nope' }, { prefix: '1', smsc: 'sandbox', priority: -1, extra: 1 }],
        extra: true,
      }),
      (error: RouteFileError) => {
        const all = error.problems.join('\n');
        for (const expected of [
          /extra: unknown field/,
          /smscs\[0\]\.name: "sandbox" is reserved/,
          /smscs\[1\]\.windw: unknown field/,
          /smscs\[2\]\.port: give either url or port/,
          /smscs\[3\]\.passwordEnv: the environment variable "MISSING" is not set/,
          /smscs\[4\]\.binds must be an integer between 1 and 64/,
          /routes\[0\]\.prefix: "44x" is not digits/,
          /routes\[0\]\.smsc: "nope" is not a defined SMSC/,
          /routes\[1\]\.priority/,
          /routes\[1\]\.extra: unknown field/,
        ]) {
          assert.match(all, expected);
        }
        assert.match(error.message, /^route file .*routes-.*\.json is not valid/);
        return true;
      },
    );
  });

  it('says when the file is missing or not JSON, and refuses both environment variables at once', async () => {
    await assert.rejects(loadRoutingConfig({ routesFile: path.join(dir, 'none.json'), defaultAccount: 'd' }), /cannot be read: ENOENT/);
    await assert.rejects(load('{ "smscs": [ }'), /is not JSON/);
    await assert.rejects(loadRoutingConfig({ routesFile: 'x', smppUrl: 'smpp://a:b@h', defaultAccount: 'd' }), /either SWITCHBOARD_ROUTES or SWITCHBOARD_SMPP_URL/);
  });

  it('lists the configuration without passwords', async () => {
    const config = await load({ smscs: [{ name: 'a', url: 'smpp://u:hunter2@h:2775' }], routes: [{ prefix: '44', smsc: 'a' }] });
    const text = describeRouting(config);
    assert.match(text, /a: h:2775/);
    assert.match(text, /44 +→ a/);
    assert.doesNotMatch(text, /hunter2/);
    assert.match(describeRouting(await loadRoutingConfig({ defaultAccount: 'd' })), /sandbox/);
  });
});

describe('prefix router', () => {
  const carrier = (name: string, available = true): Carrier => ({
    name,
    available: () => available,
    start: async () => undefined,
    submit: async () => [],
    resume: async () => undefined,
    stop: async () => undefined,
  });
  const sms = (destination: string): OutboundMessage => ({ accountId: 'a', pk: 1, messageId: 'm', destination, content: { text: 'x' }, encoding: 'GSM7', messageCount: 1, validUntil: 0, flash: false, attempts: 1 });
  const rule = (prefix: string, smsc: string, priority: number, order: number): RouteRule => ({ prefixes: [prefix], smsc, priority, order });

  it('orders candidates by priority, then longer prefix, then file order', () => {
    const routes = [rule('', 'catchall', 100, 0), rule('44', 'uk', 100, 1), rule('4479', 'mobile', 100, 2), rule('44', 'cheap', 1, 3)];
    assert.deepEqual(candidatesFor(routes, '447900000000').map((r) => r.smsc), ['cheap', 'mobile', 'uk', 'catchall']);
    assert.deepEqual(candidatesFor(routes, '41790000000').map((r) => r.smsc), ['catchall']);
  });

  it('fails over to the next available carrier, and refuses destinations no route covers', async () => {
    const down = carrier('down', false);
    const up = carrier('up');
    const router = new PrefixRouter([rule('41', 'down', 1, 0), rule('41', 'up', 2, 1)], new Map([['down', down], ['up', up]]));
    assert.equal(router.route(sms('+41790000000')), up);
    const both = new PrefixRouter([rule('41', 'a', 1, 0), rule('41', 'b', 2, 1)], new Map([['a', carrier('a')], ['b', carrier('b')]]));
    assert.deepEqual([1, 2, 3].map((attempts) => both.route({ ...sms('41790000000'), attempts }).name), ['a', 'b', 'a'], 'a retry moves on to the next route');
    assert.deepEqual(router.carriers().map((c) => c.name), ['down', 'up']);
    const none = router.route(sms('44790000000'));
    assert.equal(none.name, 'no-route');
    const [outcome] = await none.submit([sms('44790000000')]);
    assert.deepEqual(outcome, { pk: 1, accountId: 'a', ok: false, retryable: false, status: ref(STATUS.REJECTED_ROUTE_NOT_AVAILABLE), errorId: ERROR.NO_ERROR.id });
    const allDown = new PrefixRouter([rule('', 'down', 1, 0)], new Map([['down', down]]));
    assert.equal(allDown.route(sms('1')), down, 'with nothing available, the best route (it answers "retry later")');
  });
});
