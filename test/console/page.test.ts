import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError } from '../../src/config-error.js';
import { loadConfig } from '../../src/config.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const INDEX = '<!doctype html><html><head><title>Switchboard console</title></head><body><div id="app"></div></body></html>';
const SCRIPT = 'console.log("console");';

async function builtConsole(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-console-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), INDEX);
  await writeFile(path.join(dir, 'assets', 'index-3f9a1c2b.js'), SCRIPT);
  await writeFile(path.join(dir, 'assets', 'index-77d0e1aa.css'), 'body{margin:0}');
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

const get = (server: TestServer, pathname: string, headers: Record<string, string> = {}) => fetch(server.url + pathname, { headers, redirect: 'manual' });

describe('the console page, served by the server', () => {
  let dir: string;
  let server: TestServer;
  before(async () => {
    dir = await builtConsole();
    server = await startTestServer({ consoleDir: dir });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('redirects /console to /console/, which is the page, never cached, with no key asked', async () => {
    const bare = await get(server, '/console');
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), '/console/');
    const page = await get(server, '/console/');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    // The page holds a key: only its own scripts, only this server, never in a frame.
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self';.*connect-src 'self';.*frame-ancestors 'none'/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(await page.text(), INDEX);
    const deepLink = await get(server, '/console/messages/123');
    assert.equal(deepLink.status, 200);
    assert.equal(await deepLink.text(), INDEX);
  });

  it('serves hashed assets for a year with their content types, and other files uncached', async () => {
    const script = await get(server, '/console/assets/index-3f9a1c2b.js');
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /^(text|application)\/javascript/);
    assert.equal(script.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(await script.text(), SCRIPT);
    const style = await get(server, '/console/assets/index-77d0e1aa.css');
    assert.match(style.headers.get('content-type') ?? '', /^text\/css/);
    const icon = await get(server, '/console/favicon.svg');
    assert.equal(icon.status, 200);
    assert.match(icon.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    assert.equal(icon.headers.get('cache-control'), 'no-cache');
    const missing = await get(server, '/console/assets/index-00000000.js');
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /^text\/plain/);
  });

  it('never serves a file outside the console', async () => {
    for (const pathname of ['/console/../package.json', '/console/%2e%2e/package.json', '/console/assets/..%2f..%2fpackage.json']) {
      const response = await get(server, pathname);
      const text = await response.text();
      assert.ok(!text.includes('"dependencies"'), `${pathname} answered ${response.status}`);
    }
  });

  it('leads a browser from / to the console, and keeps the JSON 404 for other clients', async () => {
    const browser = await get(server, '/', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    assert.equal(browser.status, 302);
    assert.equal(browser.headers.get('location'), '/console/');
    const client = await get(server, '/', { accept: 'application/json' });
    assert.equal(client.status, 404);
    assert.deepEqual(Object.keys((await client.json()) as object), ['requestError']);
    assert.equal((await get(server, '/')).status, 404);
  });

  it('keeps the page out of the OpenAPI document', async () => {
    const spec = (await server.request('GET', '/openapi.json')).json() as { paths: Record<string, unknown> };
    assert.deepEqual(Object.keys(spec.paths).filter((p) => p === '/' || p.startsWith('/console')), []);
    assert.ok(spec.paths['/switchboard/1/events'], 'the feed is documented');
  });
});

describe('the console when it is not built, or turned off', () => {
  it('answers a short text saying how to build it, never a 500', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'switchboard-console-'));
    const server = await startTestServer({ consoleDir: empty });
    try {
      for (const pathname of ['/console/', '/console/assets/index-3f9a1c2b.js']) {
        const response = await get(server, pathname);
        assert.equal(response.status, 404, pathname);
        assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
        assert.match(await response.text(), /npm run build/);
      }
    } finally {
      await server.close();
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('serves nothing at /console and no redirect at / with SWITCHBOARD_CONSOLE=off', async () => {
    const dir = await builtConsole();
    const server = await startTestServer({ consoleDir: dir, env: { SWITCHBOARD_CONSOLE: 'off' } });
    try {
      const page = await get(server, '/console/');
      assert.equal(page.status, 404);
      assert.deepEqual(Object.keys((await page.json()) as object), ['requestError']);
      assert.equal((await get(server, '/', { accept: 'text/html' })).status, 404);
      assert.equal((await server.request('GET', '/switchboard/1/messages')).status, 200, 'the API stays');
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses any other value of SWITCHBOARD_CONSOLE', () => {
    assert.equal(loadConfig({ SWITCHBOARD_CONSOLE: 'on' }).console, true);
    assert.equal(loadConfig({}).console, true);
    assert.equal(loadConfig({ SWITCHBOARD_CONSOLE: 'off' }).console, false);
    assert.throws(() => loadConfig({ SWITCHBOARD_CONSOLE: 'maybe' }), ConfigError);
  });
});
