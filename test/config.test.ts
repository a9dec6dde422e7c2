import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/config-error.js';

describe('configuration', () => {
  it('node take-over timings: a 5 s heartbeat and 15 s of silence by default, or as set', () => {
    const defaults = loadConfig({});
    assert.deepEqual([defaults.nodeHeartbeatMs, defaults.nodeTimeoutMs], [5_000, 15_000]);
    const short = loadConfig({ SWITCHBOARD_NODE_HEARTBEAT_MS: '500', SWITCHBOARD_NODE_TIMEOUT_MS: '2000' });
    assert.deepEqual([short.nodeHeartbeatMs, short.nodeTimeoutMs], [500, 2_000]);
    const slowBeat = loadConfig({ SWITCHBOARD_NODE_HEARTBEAT_MS: '10000' });
    assert.equal(slowBeat.nodeTimeoutMs, 30_000, 'the default silence covers three beats');
  });

  it('refuses take-over timings that would declare a node dead after a single late beat, or out of range', () => {
    assert.throws(
      () => loadConfig({ SWITCHBOARD_NODE_HEARTBEAT_MS: '5000', SWITCHBOARD_NODE_TIMEOUT_MS: '9000' }),
      (error: unknown) => error instanceof ConfigError && /SWITCHBOARD_NODE_TIMEOUT_MS \(9000\) must be at least twice SWITCHBOARD_NODE_HEARTBEAT_MS \(5000\)/.test(error.message),
    );
    assert.throws(() => loadConfig({ SWITCHBOARD_NODE_HEARTBEAT_MS: '50' }), /SWITCHBOARD_NODE_HEARTBEAT_MS must be an integer between 100 and 60000/);
    assert.throws(() => loadConfig({ SWITCHBOARD_NODE_TIMEOUT_MS: 'soon' }), /SWITCHBOARD_NODE_TIMEOUT_MS must be an integer/);
  });
});
