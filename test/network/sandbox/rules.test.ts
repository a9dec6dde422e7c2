import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError } from '../../../src/config-error.js';
import { findRule, loadSandboxRules, parseSandboxRules, ruleMatches, SandboxRulesError } from '../../../src/network/sandbox/rules.js';
import { builtInOutcome } from '../../../src/network/sandbox/outcomes.js';

describe('sandbox rules', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sandbox-rules-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const file = async (name: string, content: string): Promise<string> => {
    const full = path.join(dir, name);
    await writeFile(full, content);
    return full;
  };

  it('loads a valid file given as an array', async () => {
    const rules = await loadSandboxRules(
      await file('array.json', JSON.stringify([
        { match: { suffix: '0042' }, outcome: 'UNDELIVERABLE', latencyMs: 250, error: 'EC_UNKNOWN_SUBSCRIBER' },
        { match: { prefix: '+44', number: '447700900123' }, outcome: 'REJECTED', status: 'REJECTED_DESTINATION' },
      ])),
    );
    assert.deepEqual(rules, [
      { match: { suffix: '0042' }, outcome: 'UNDELIVERABLE', latencyMs: 250, error: 'EC_UNKNOWN_SUBSCRIBER' },
      { match: { prefix: '44', number: '447700900123' }, outcome: 'REJECTED', status: 'REJECTED_DESTINATION' },
    ]);
  });

  it('loads a valid file given as {"rules": [...]}', async () => {
    const rules = await loadSandboxRules(await file('object.json', '{"rules": [{"match": {"suffix": "7"}, "outcome": "NO_REPORT"}]}'));
    assert.deepEqual(rules, [{ match: { suffix: '7' }, outcome: 'NO_REPORT' }]);
  });

  it('rejects an invalid file naming the file and every bad entry', async () => {
    const bad = await file('bad.json', JSON.stringify([
      { match: { suffix: '1' }, outcome: 'DELIVERED' },
      { match: { suffix: 'abc' }, outcome: 'LOST' },
      { match: {}, outcome: 'DELIVERED', latencyMs: -5 },
      { match: { number: '1' }, outcome: 'DELIVERED', status: 'PENDING_ENROUTE', colour: 'red' },
      { match: { number: '1' }, outcome: 'NO_REPORT', status: 'REJECTED_NETWORK', error: 'EC_NOPE' },
      'not a rule',
    ]));
    await assert.rejects(loadSandboxRules(bad), (error: Error) => {
      assert.ok(error instanceof SandboxRulesError);
      assert.ok(error instanceof ConfigError);
      for (const expected of [
        bad,
        'rules[1].match.suffix: must be a string of 1 to 20 digits',
        'rules[1].outcome: must be one of [DELIVERED, UNDELIVERABLE, EXPIRED, REJECTED, NO_REPORT, NOT_RCS_CAPABLE, REFUSED, THROTTLED]',
        'rules[2].match: must set suffix, prefix or number',
        'rules[2].latencyMs: must be an integer between 0 and 3600000',
        'rules[3].colour: unknown property',
        'rules[3].status: must be a final status (not PENDING)',
        'rules[4].status: is not used by outcome NO_REPORT',
        'rules[4].error: must be an error name',
        'rules[5]: must be an object',
      ]) {
        assert.ok(error.message.includes(expected), `missing "${expected}" in:\n${error.message}`);
      }
      assert.ok(!error.message.includes('rules[0]'));
      return true;
    });
  });

  it('rejects a file that is not JSON, or not a list, or missing', async () => {
    await assert.rejects(loadSandboxRules(await file('broken.json', '[{')), /is not valid JSON/);
    await assert.rejects(loadSandboxRules(await file('scalar.json', '42')), /rules: must be an array of rules/);
    await assert.rejects(loadSandboxRules(path.join(dir, 'absent.json')), /cannot be read/);
  });

  it('parseSandboxRules reports problems under the given path', () => {
    const parsed = parseSandboxRules([{ match: { suffix: '1' } }], 'body.rules');
    assert.deepEqual(parsed, { problems: [{ path: 'body.rules[0].outcome', problem: 'must be one of [DELIVERED, UNDELIVERABLE, EXPIRED, REJECTED, NO_REPORT, NOT_RCS_CAPABLE, REFUSED, THROTTLED]' }] });
  });

  it('a rule matches when every field it sets matches, ignoring a leading +', () => {
    const rule = { match: { prefix: '44', suffix: '23' }, outcome: 'DELIVERED' as const };
    assert.ok(ruleMatches(rule, '+447700900123'));
    assert.ok(!ruleMatches(rule, '447700900124'));
    assert.ok(!ruleMatches(rule, '417700900123'));
    assert.ok(ruleMatches({ match: { number: '4179' }, outcome: 'DELIVERED' }, '+4179'));
    assert.ok(!ruleMatches({ match: { number: '4179' }, outcome: 'DELIVERED' }, '41791'));
  });

  it('findRule searches the lists in order and returns the first match', () => {
    const first = { match: { suffix: '1' }, outcome: 'EXPIRED' as const };
    const second = { match: { suffix: '1' }, outcome: 'REJECTED' as const };
    assert.equal(findRule([[], [first, second]], '41791'), first);
    assert.equal(findRule([[second], [first]], '41791'), second);
    assert.equal(findRule([[first]], '41792'), undefined);
  });

  it('the built-in table reads the last four digits', () => {
    assert.equal(builtInOutcome('385919001'), 'UNDELIVERABLE');
    assert.equal(builtInOutcome('+385919002'), 'EXPIRED');
    assert.equal(builtInOutcome('385919003'), 'REJECTED');
    assert.equal(builtInOutcome('385919004'), 'NO_REPORT');
    assert.equal(builtInOutcome('385919005'), 'DELIVERED');
    assert.equal(builtInOutcome('385990010'), 'DELIVERED');
  });
});
