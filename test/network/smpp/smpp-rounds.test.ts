import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { eventually, startTestServer } from '../../helpers/server.js';
import { startSmsc, type TestSmsc } from '../../helpers/smsc.js';

/** The dispatcher's rounds on a live link: the next rounds go out while earlier ones await their answers. */

/** Run in reverse: the server closes before the simulator it is bound to. */
const stops: Array<() => Promise<void>> = [];
after(async () => {
  for (const stop of stops.reverse()) await stop();
});

const DESTINATIONS = 600;
/** Submits sent before any is answered: four rounds of 100, on either store. */
const OUTSTANDING = 400;

describe('dispatcher rounds over SMPP', () => {
  it('submits further rounds while the first awaits its answers, and every message ends delivered', async () => {
    const clock = new ManualClock();
    const smsc: TestSmsc = await startSmsc({ faults: { responseDelayMs: 1_000 } }, clock);
    stops.push(() => smsc.stop());
    const server = await startTestServer({ env: { SWITCHBOARD_SMPP_URL: smsc.url('window=500') }, clock });
    stops.push(() => server.close());
    await eventually(async () => (smsc.sim.stats().binds === 1 ? true : undefined));

    const destinations = Array.from({ length: DESTINATIONS }, (_, i) => ({ to: `4179${String(3_000_000 + i)}` }));
    const response = await server.request('POST', '/sms/3/messages', {
      body: { messages: [{ sender: 'Rounds', destinations, content: { text: 'one of many' } }] },
    });
    assert.equal(response.status, 200, response.text);
    const bulkId = response.json().bulkId as string;

    // The simulator's clock has not moved, so no submit has been answered: whatever arrived beyond
    // one round of 100 was sent while the earlier rounds were still waiting.
    let outstanding: number;
    try {
      outstanding = await eventually(async () => {
        const submits = smsc.sim.stats().submits;
        return submits >= OUTSTANDING ? submits : undefined;
      });
    } finally {
      // Answered whatever happens: a server whose submits are never answered cannot stop.
      smsc.sim.setFaults({ responseDelayMs: 0 });
      clock.advance(1_000);
    }
    assert.equal(outstanding, OUTSTANDING, 'as many submits outstanding at once as the rounds allow');

    const delivered = await eventually(async () => {
      clock.advance(250);
      const logs = await server.request('GET', `/sms/3/logs?bulkId=${bulkId}&limit=1000`);
      const results = logs.json().results as Array<{ status: { name: string } }>;
      const done = results.filter((r) => r.status.name === 'DELIVERED_TO_HANDSET').length;
      return done === DESTINATIONS ? done : undefined;
    }, 20_000);
    assert.equal(delivered, DESTINATIONS);
    assert.equal(smsc.sim.stats().submits, DESTINATIONS, 'each message submitted once');
  });
});
