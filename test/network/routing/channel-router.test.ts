import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Carrier, OutboundMessage } from '../../../src/network/carrier.js';
import { ChannelRouter } from '../../../src/network/routing/channel-router.js';
import type { RouteRule } from '../../../src/network/routing/routing-config.js';

/** A carrier that only has a name and the channels it declares: routing reads nothing else. */
const carrier = (name: string, channels?: Carrier['channels']): Carrier => ({
  name,
  ...(channels ? { channels } : {}),
  start: async () => undefined,
  submit: async () => [],
  resume: async () => undefined,
  stop: async () => undefined,
});

const message = (destination: string, channel?: 'RCS'): OutboundMessage => ({
  accountId: 'a',
  pk: 1,
  messageId: 'm',
  destination,
  content: channel ? { type: 'TEXT', text: 'hi' } : { text: 'hi' },
  encoding: channel ? 'RCS' : 'GSM7',
  messageCount: 1,
  validUntil: 0,
  flash: false,
  attempts: 1,
  ...(channel ? { channel } : {}),
});

const rule = (smsc: string, prefixes: string[], order: number): RouteRule => ({ smsc, prefixes, priority: 100, order });

describe('ChannelRouter', () => {
  const smsc = carrier('smsc');
  const sandbox = carrier('sandbox', ['SMS', 'RCS']);
  const byName = new Map<string, Carrier>([
    ['smsc', smsc],
    ['sandbox', sandbox],
  ]);

  it('routes SMS by the prefix routes and RCS only to carriers that carry RCS', () => {
    const router = new ChannelRouter([rule('smsc', ['41'], 0), rule('sandbox', ['44'], 1)], byName);
    assert.equal(router.route(message('41790000000')).name, 'smsc');
    assert.equal(router.route(message('44790000000')).name, 'sandbox');
    assert.equal(router.route(message('44790000000', 'RCS')).name, 'sandbox');
    assert.equal(router.route(message('41790000000', 'RCS')).name, 'no-route', 'an SMSC does not carry RCS');
  });

  it('refuses RCS for good where only SMSCs route it', async () => {
    const router = new ChannelRouter([rule('smsc', [''], 0)], byName);
    const refused = router.route(message('41790000000', 'RCS'));
    const [outcome] = await refused.submit([message('41790000000', 'RCS')]);
    assert.deepEqual(outcome && !outcome.ok && [outcome.retryable, outcome.status], [false, { groupId: 5, id: 19 }]);
    assert.ok(router.carriers().includes(smsc) && router.carriers().includes(sandbox), 'every carrier is started');
  });
});
