import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { SERVER_NODE_FLAGS } from '../src/node-flags.js';
import { startChildServer } from './helpers/child-server.js';
import { removeTestEnv, testEnv } from './helpers/server.js';

const run = promisify(execFile);
const cli = path.resolve('dist/src/cli.js');

async function switchboard(env: Record<string, string>, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env: { ...process.env, ...env } });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

const reports = (url: string, key: string): Promise<Response> => fetch(`${url}/sms/3/reports`, { headers: { authorization: `App ${key}` } });

describe('command line', () => {
  const envs: Array<Record<string, string>> = [];
  after(async () => {
    for (const env of envs) await removeTestEnv(env);
  });

  it('generates and prints a key once when none exists, then manages keys while the server runs', async () => {
    const env = await testEnv({ SWITCHBOARD_AUTH_CACHE_MS: '0' });
    delete env.SWITCHBOARD_API_KEY;
    envs.push(env);
    const server = await startChildServer(env);
    try {
      const printed = /shown only once\): (\S+)/.exec(server.output());
      assert.ok(printed, `no generated key in: ${server.output()}`);
      assert.equal((await reports(server.url, printed[1]!)).status, 200);

      const created = await switchboard(env, 'keys', 'create', '--account', 'acme');
      assert.equal(created.code, 0, created.stderr);
      const key = /key: (\S+)/.exec(created.stdout)?.[1];
      const id = /id: (\S+)/.exec(created.stdout)?.[1];
      assert.ok(key && id);
      assert.equal((await reports(server.url, key)).status, 200);

      const listed = await switchboard(env, 'keys', 'list');
      assert.equal(listed.code, 0);
      assert.match(listed.stdout, new RegExp(`${id}\\s+acme\\s+${key.slice(0, 8)}`));
      assert.equal(listed.stdout.includes(key), false, 'keys list never shows a key');

      const revoked = await switchboard(env, 'keys', 'revoke', id);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.equal((await reports(server.url, key)).status, 401);
      assert.match((await switchboard(env, 'keys', 'list')).stdout, new RegExp(`${id}.*revoked`));
      assert.notEqual((await switchboard(env, 'keys', 'revoke', 'no-such-id')).code, 0);
    } finally {
      assert.equal(await server.terminate(), 0, 'SIGTERM exits cleanly');
    }
    const again = await startChildServer(env);
    try {
      assert.equal(/shown only once/.test(again.output()), false, 'a key is generated only when none exists');
    } finally {
      await again.terminate();
    }
  });

  it('migrates a new store and reports an up-to-date one', async () => {
    const env = await testEnv();
    envs.push(env);
    const first = await switchboard(env, 'migrate');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /applied migrations: /);
    const second = await switchboard(env, 'migrate');
    assert.match(second.stdout, /up to date/);
  });

  it('rejects bad configuration and unknown commands with a clear message', async () => {
    const env = await testEnv({ PORT: 'eighty' });
    envs.push(env);
    const bad = await switchboard(env, 'serve');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /PORT must be an integer/);
    const unknownEnv = await testEnv();
    envs.push(unknownEnv);
    const unknown = await switchboard(unknownEnv, 'frobnicate');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command/);
  });

  it('starts with the same V8 flags from the shebang and from npm start, and Node accepts them', async () => {
    const flags = SERVER_NODE_FLAGS.join(' ');
    const shebang = (await readFile(cli, 'utf8')).split('\n', 1)[0];
    assert.equal(shebang, `#!/usr/bin/env -S node ${flags}`);
    const scripts = (JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    assert.match(scripts.start!, new RegExp(`node ${flags} dist/src/cli\\.js serve$`));
    const { stderr } = await run(process.execPath, [...SERVER_NODE_FLAGS, '-e', '0']);
    assert.equal(stderr, '');
  });
});
