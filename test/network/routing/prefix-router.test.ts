import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR, STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import type { Carrier, OutboundMessage } from '../../../src/network/carrier.js';
import { NoRouteCarrier } from '../../../src/network/routing/no-route-carrier.js';
import { PrefixRouter } from '../../../src/network/routing/prefix-router.js';
import { candidatesFor, type RouteRule } from '../../../src/network/routing/routing-config.js';

/** A carrier whose availability the test switches; `available` left out when `always` (like the sandbox). */
function fakeCarrier(name: string, state: { up: boolean } | 'always' = 'always'): Carrier {
  return {
    name,
    ...(state === 'always' ? {} : { available: () => state.up }),
    start: async () => undefined,
    submit: async () => [],
    resume: async () => undefined,
    stop: async () => undefined,
  };
}

const sms = (destination: string, attempts = 1): OutboundMessage => ({
  accountId: 'acc',
  pk: 7,
  messageId: 'm',
  destination,
  content: { text: 'x' },
  encoding: 'GSM7',
  messageCount: 1,
  validUntil: 0,
  flash: false,
  attempts,
});

const rule = (prefixes: string | string[], smsc: string, priority = 100, order = 0): RouteRule => ({
  prefixes: Array.isArray(prefixes) ? prefixes : [prefixes],
  smsc,
  priority,
  order,
});

const smscsOf = (routes: RouteRule[], destination: string) => candidatesFor(routes, destination).map((r) => r.smsc);

describe('candidatesFor', () => {
  it('orders by priority, then the longer matching prefix, then file order', () => {
    const routes = [rule('', 'catchall', 100, 0), rule('44', 'uk', 100, 1), rule('4479', 'mobile', 100, 2), rule('44', 'cheap', 1, 3), rule('44', 'uk-2', 100, 4)];
    assert.deepEqual(smscsOf(routes, '447900000000'), ['cheap', 'mobile', 'uk', 'uk-2', 'catchall']);
    assert.deepEqual(smscsOf(routes, '447700000000'), ['cheap', 'uk', 'uk-2', 'catchall']);
    assert.deepEqual(smscsOf(routes, '41790000000'), ['catchall']);
  });

  it('lists an SMSC once, by its best rule, and matches any prefix of a list', () => {
    const routes = [rule('', 'a', 50, 0), rule(['353', '4479'], 'b', 100, 1), rule('4479', 'a', 10, 2)];
    assert.deepEqual(
      candidatesFor(routes, '447912345678').map((r) => [r.smsc, r.priority]),
      [['a', 10], ['b', 100]],
    );
    assert.deepEqual(smscsOf(routes, '353871234567'), ['a', 'b']);
  });

  it('matches nothing when no prefix fits', () => {
    assert.deepEqual(smscsOf([rule('44', 'uk')], '4'), []);
    assert.deepEqual(smscsOf([], '44'), []);
  });
});

describe('PrefixRouter', () => {
  it('lists every carrier once, routed ones first (an unrouted SMSC still brings inbound and receipts), and refuses routes to unknown carriers', () => {
    const a = fakeCarrier('a');
    const b = fakeCarrier('b');
    const unused = fakeCarrier('unused');
    const router = new PrefixRouter([rule('1', 'a'), rule('2', 'b'), rule('3', 'a')], new Map([['a', a], ['b', b], ['unused', unused]]));
    assert.deepEqual(router.carriers(), [a, b, unused]);
    assert.throws(() => new PrefixRouter([rule('1', 'ghost')], new Map([['a', a]])), /"ghost"/);
  });

  it('takes the best route, with or without a leading +', () => {
    const uk = fakeCarrier('uk');
    const world = fakeCarrier('world');
    const router = new PrefixRouter([rule('44', 'uk', 1, 0), rule('', 'world', 2, 1)], new Map([['uk', uk], ['world', world]]));
    assert.equal(router.route(sms('+447900000000')), uk);
    assert.equal(router.route(sms('447900000000')), uk);
    assert.equal(router.route(sms('+15550100')), world);
  });

  it('fails over to the next available carrier while the best one is down, and back when it returns', () => {
    const primaryState = { up: false };
    const primary = fakeCarrier('primary', primaryState);
    const backup = fakeCarrier('backup', { up: true });
    const router = new PrefixRouter([rule('41', 'primary', 1, 0), rule('41', 'backup', 2, 1)], new Map([['primary', primary], ['backup', backup]]));
    assert.equal(router.route(sms('41790000000')), backup);
    primaryState.up = true;
    assert.equal(router.route(sms('41790000000')), primary, 'availability is asked per message, not cached');
  });

  it('moves a retry on to the next available route', () => {
    const a = fakeCarrier('a');
    const down = fakeCarrier('down', { up: false });
    const c = fakeCarrier('c', { up: true });
    const router = new PrefixRouter([rule('1', 'a', 1, 0), rule('1', 'down', 2, 1), rule('1', 'c', 3, 2)], new Map([['a', a], ['down', down], ['c', c]]));
    assert.deepEqual([1, 2, 3, 4].map((attempts) => router.route(sms('1555', attempts)).name), ['a', 'c', 'a', 'c']);
    assert.equal(router.route(sms('1555', 0)).name, 'a', 'an unclaimed message counts as a first attempt');
  });

  it('uses the best route when none is available (its submit answers "retry later")', () => {
    const first = fakeCarrier('first', { up: false });
    const second = fakeCarrier('second', { up: false });
    const router = new PrefixRouter([rule('', 'first', 1, 0), rule('', 'second', 2, 1)], new Map([['first', first], ['second', second]]));
    assert.equal(router.route(sms('1', 1)), first);
    assert.equal(router.route(sms('1', 2)), first);
  });

  it('keeps a single candidate whatever its state', () => {
    const only = fakeCarrier('only', { up: false });
    const router = new PrefixRouter([rule('', 'only')], new Map([['only', only]]));
    assert.equal(router.route(sms('1', 3)), only);
  });

  it('gives the same answer for numbers sharing their significant digits, and different ones otherwise', () => {
    const short = fakeCarrier('short');
    const long = fakeCarrier('long');
    const router = new PrefixRouter([rule('4', 'short', 2, 0), rule('44790', 'long', 1, 1)], new Map([['short', short], ['long', long]]));
    assert.equal(router.route(sms('447901111111')), long);
    assert.equal(router.route(sms('447902222222')), long);
    assert.equal(router.route(sms('447911111111')), short);
    assert.equal(router.route(sms('4479')), short, 'shorter than the longest prefix');
    assert.equal(router.route(sms('44790')), long);
  });

  it('refuses destinations no route covers, final, REJECTED_ROUTE_NOT_AVAILABLE', async () => {
    const router = new PrefixRouter([rule('44', 'uk')], new Map([['uk', fakeCarrier('uk')]]));
    const carrier = router.route(sms('+15550100'));
    assert.ok(carrier instanceof NoRouteCarrier);
    assert.equal(carrier.name, 'no-route');
    assert.equal(router.route(sms('+15550101')), carrier, 'one shared instance');
    assert.ok(!router.carriers().includes(carrier), 'never started or resumed as a network');
    const outcomes = await carrier.submit([sms('+15550100'), { ...sms('+15550101'), pk: 8, accountId: 'other' }]);
    assert.deepEqual(outcomes, [
      { pk: 7, accountId: 'acc', ok: false, retryable: false, status: ref(STATUS.REJECTED_ROUTE_NOT_AVAILABLE), errorId: ERROR.NO_ERROR.id },
      { pk: 8, accountId: 'other', ok: false, retryable: false, status: ref(STATUS.REJECTED_ROUTE_NOT_AVAILABLE), errorId: ERROR.NO_ERROR.id },
    ]);
    assert.equal(await carrier.resume(), undefined);
  });
});
