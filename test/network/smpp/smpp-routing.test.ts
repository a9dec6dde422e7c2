import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { eventually, startTestServer, type TestServer } from '../../helpers/server.js';
import { startSmsc, type TestSmsc } from '../../helpers/smsc.js';

const run = promisify(execFile);
const cli = path.resolve('dist/src/cli.js');

describe('routing between SMSCs', () => {
  let dir: string;
  const stops: Array<() => Promise<void>> = [];
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-routes-'));
  });
  after(async () => {
    for (const stop of stops) await stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function smsc(options: Parameters<typeof startSmsc>[0] = {}): Promise<TestSmsc> {
    const started = await startSmsc(options);
    stops.push(() => started.stop());
    return started;
  }

  async function routeFile(name: string, content: unknown): Promise<string> {
    const file = path.join(dir, name);
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return file;
  }

  /** The message's status once it is final. */
  async function finalStatus(server: TestServer, messageId: string, timeoutMs = 8000): Promise<string> {
    return eventually(async () => {
      const entry = (await server.request('GET', `/sms/3/logs?messageId=${messageId}`)).json().results[0] as { status: { groupName: string; name: string } } | undefined;
      return entry && !['ACCEPTED', 'PENDING'].includes(entry.status.groupName) ? entry.status.name : undefined;
    }, timeoutMs);
  }

  async function send(server: TestServer, to: string): Promise<string> {
    const response = await server.request('POST', '/sms/3/messages', { body: { messages: [{ destinations: [{ to }], content: { text: `to ${to}` } }] } });
    assert.equal(response.status, 200, response.text);
    return response.json().messages[0].messageId as string;
  }

  it('routes by prefix and fails over to the next route when an SMSC refuses binds', async () => {
    const down = await smsc({ faults: { refuseBinds: true } });
    const backup = await smsc();
    const uk = await smsc();
    const file = await routeFile('failover.json', {
      smscs: [
        { name: 'primary', url: down.url() },
        { name: 'backup', url: backup.url() },
        { name: 'uk', url: uk.url() },
      ],
      routes: [
        { prefix: '41', smsc: 'primary', priority: 1 },
        { prefix: '41', smsc: 'backup', priority: 2 },
        { prefix: '44', smsc: 'uk' },
      ],
    });
    const server = await startTestServer({ env: { SWITCHBOARD_ROUTES: file } });
    try {
      await eventually(async () => (backup.sim.stats().binds > 0 && uk.sim.stats().binds > 0 ? true : undefined));
      const swiss = await send(server, '41793026727');
      const british = await send(server, '447860099299');
      assert.equal(await finalStatus(server, swiss), 'DELIVERED_TO_HANDSET');
      assert.equal(await finalStatus(server, british), 'DELIVERED_TO_HANDSET');
      assert.deepEqual(backup.sim.received().map((m) => m.to), ['41793026727']);
      assert.deepEqual(uk.sim.received().map((m) => m.to), ['447860099299']);
      assert.equal(down.sim.received().length, 0);
    } finally {
      await server.close();
    }
  });

  it('fails over to the next route when an SMSC answers with a temporary error', async () => {
    const failing = await smsc({ faults: { rejectNext: { count: 1000, status: 0x08 } } });
    const backup = await smsc();
    const file = await routeFile('temporary.json', {
      smscs: [
        { name: 'primary', url: failing.url() },
        { name: 'backup', url: backup.url() },
      ],
    });
    const server = await startTestServer({ env: { SWITCHBOARD_ROUTES: file } });
    try {
      await eventually(async () => (failing.sim.stats().binds > 0 && backup.sim.stats().binds > 0 ? true : undefined));
      const id = await send(server, '41793026727');
      // The first attempt gets ESME_RSYSERR; the retry (after the pipeline's back-off) goes to the backup.
      assert.equal(await finalStatus(server, id, 15_000), 'DELIVERED_TO_HANDSET');
      assert.deepEqual(backup.sim.received().map((m) => m.to), ['41793026727']);
      assert.equal(failing.sim.received().length, 0);
    } finally {
      await server.close();
    }
  });

  it('sends destinations no route covers to nobody: REJECTED_ROUTE_NOT_AVAILABLE', async () => {
    const only = await smsc();
    const file = await routeFile('narrow.json', { smscs: [{ name: 'uk', url: only.url() }], routes: [{ prefix: '44', smsc: 'uk' }] });
    const server = await startTestServer({ env: { SWITCHBOARD_ROUTES: file } });
    try {
      const id = await send(server, '41793026727');
      assert.equal(await finalStatus(server, id), 'REJECTED_ROUTE_NOT_AVAILABLE');
    } finally {
      await server.close();
    }
  });

  it('refuses to start on a misconfigured route file, naming every problem', async () => {
    const file = await routeFile('broken.json', {
      smscs: [{ name: 'a', url: 'smpp://u:p@127.0.0.1:2775', windw: 10 }],
      routes: [{ prefix: '44', smsc: 'b' }],
    });
    await assert.rejects(startTestServer({ env: { SWITCHBOARD_ROUTES: file } }), (error: Error) => {
      assert.match(error.message, /broken\.json/);
      assert.match(error.message, /windw/);
      assert.match(error.message, /"b"/);
      return true;
    });
    const result = await run(process.execPath, [cli, 'routes'], { env: { ...process.env, SWITCHBOARD_ROUTES: file } }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(result.code, 2);
    assert.match(result.stderr, /windw/);
    assert.doesNotMatch(result.stderr, /at .*\.js:\d+/, 'a clear message, not a stack trace');
  });

  it('lists the configuration with `switchboard routes`, without passwords', async () => {
    const file = await routeFile('ok.json', {
      smscs: [{ name: 'operator-a', url: 'smpp://sb:hunter2@127.0.0.1:2775?binds=2&window=100' }],
      routes: [{ prefix: '44', smsc: 'operator-a' }, { prefix: '*', smsc: 'sandbox' }],
    });
    const { stdout } = await run(process.execPath, [cli, 'routes'], { env: { ...process.env, SWITCHBOARD_ROUTES: file } });
    assert.match(stdout, /operator-a/);
    assert.match(stdout, /127\.0\.0\.1:2775/);
    assert.match(stdout, /sandbox/);
    assert.doesNotMatch(stdout, /hunter2/);
  });
});
