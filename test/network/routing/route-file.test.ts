import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { describeJsonError, loadRouteFile, RouteFileError } from '../../../src/network/routing/route-file.js';
import { candidatesFor, loadRoutingConfig } from '../../../src/network/routing/routing-config.js';
import { SMSC_SETTINGS } from '../../../src/network/smpp/smsc-settings.js';

describe('route file', () => {
  let dir: string;
  let count = 0;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-route-file-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function write(content: unknown): Promise<string> {
    const file = path.join(dir, `routes-${++count}.json`);
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return file;
  }
  const load = async (content: unknown, env: Record<string, string> = {}) => loadRouteFile(await write(content), env, { inboundAccount: 'default' });

  /** The problems of a file that must be refused; each expected pattern must match one of them. */
  async function problemsOf(content: unknown, expected: RegExp[], env: Record<string, string> = {}): Promise<string[]> {
    const file = await write(content);
    let problems: string[] = [];
    await assert.rejects(loadRouteFile(file, env, { inboundAccount: 'default' }), (error: unknown) => {
      assert.ok(error instanceof RouteFileError, String(error));
      assert.ok(error.message.startsWith(`route file ${file} `), error.message);
      problems = error.problems;
      return true;
    });
    for (const pattern of expected) assert.ok(problems.some((p) => pattern.test(p)), `${pattern} in:\n${problems.join('\n')}`);
    return problems;
  }

  const smsc = { name: 'a', url: 'smpp://u:p@h' };

  it('reads the documented example', async () => {
    const config = await load(
      {
        smscs: [
          { name: 'operator-a', url: 'smpp://user:secret@smsc.example.com:2775?binds=2&window=100' },
          { name: 'backup', host: '10.0.0.7', port: 2775, systemId: 'sb', passwordEnv: 'BACKUP_SMSC_PASSWORD', tls: true, binds: 1, throughput: 50, longMessages: 'sar' },
        ],
        routes: [
          { prefix: '4479', smsc: 'operator-a', priority: 1 },
          { prefix: '44', smsc: 'backup', priority: 2 },
          { prefix: '*', smsc: 'sandbox' },
        ],
      },
      { BACKUP_SMSC_PASSWORD: 'b-secret' },
    );
    assert.equal(config.source, 'file');
    const [a, backup] = config.smscs;
    assert.deepEqual([a!.name, a!.host, a!.port, a!.systemId, a!.password, a!.binds, a!.window], ['operator-a', 'smsc.example.com', 2775, 'user', 'secret', 2, 100]);
    assert.deepEqual([backup!.name, backup!.host, backup!.port, backup!.password, backup!.throughput, backup!.longMessages], ['backup', '10.0.0.7', 2775, 'b-secret', 50, 'sar']);
    assert.deepEqual(backup!.tls, { rejectUnauthorized: true });
    assert.equal(backup!.inboundAccount, 'default');
    assert.deepEqual(config.routes, [
      { prefixes: ['4479'], smsc: 'operator-a', priority: 1, order: 0 },
      { prefixes: ['44'], smsc: 'backup', priority: 2, order: 1 },
      { prefixes: [''], smsc: 'sandbox', priority: 100, order: 2 },
    ]);
    assert.deepEqual(candidatesFor(config.routes, '447911123456').map((r) => r.smsc), ['operator-a', 'backup', 'sandbox']);
  });

  it('takes settings as JSON values, overriding those of the url, and a password from the environment for a url without one', async () => {
    const config = await load(
      { smscs: [{ name: 'a', url: 'smpps://u@h?window=5&tlsVerify=true', window: 7, tlsVerify: false, registeredDelivery: false, enquireLinkSeconds: 0.5, passwordEnv: 'A_PW' }] },
      { A_PW: 'from-env' },
    );
    const a = config.smscs[0]!;
    assert.equal(a.window, 7);
    assert.equal(a.password, 'from-env');
    assert.deepEqual(a.tls, { rejectUnauthorized: false });
    assert.equal(a.registeredDelivery, false);
    assert.equal(a.enquireLinkMs, 500);
  });

  it('reads a private CA relative to the route file', async () => {
    await mkdir(path.join(dir, 'ca'), { recursive: true });
    await writeFile(path.join(dir, 'ca', 'smsc-ca.pem'), 'PEM TEXT');
    const config = await load({ smscs: [{ name: 'a', host: 'h', systemId: 'u', tls: true, tlsCa: 'ca/smsc-ca.pem' }] });
    assert.deepEqual(config.smscs[0]!.tls, { rejectUnauthorized: true, ca: 'PEM TEXT' });
    assert.equal(config.smscs[0]!.port, 3550);
  });

  it('uses every SMSC for every destination, in file order, when routes are left out', async () => {
    const config = await load({ smscs: [{ name: 'b', url: 'smpp://u:p@h1' }, { name: 'a', url: 'smpp://u:p@h2' }] });
    assert.deepEqual(config.routes, [
      { prefixes: [''], smsc: 'b', priority: 0, order: 0 },
      { prefixes: [''], smsc: 'a', priority: 1, order: 1 },
    ]);
  });

  it('accepts a list of prefixes, dropping a leading +', async () => {
    const config = await load({ smscs: [smsc], routes: [{ prefix: ['4479', '+353', '*'], smsc: 'a' }] });
    assert.deepEqual(config.routes[0]!.prefixes, ['4479', '353', '']);
  });

  it('refuses unknown fields at every level, so typos do not pass silently', async () => {
    await problemsOf({ smscs: [{ ...smsc, windw: 5 }], routes: [{ prefix: '1', smsc: 'a', priorty: 1 }], rotues: [] }, [
      /^rotues: unknown field \(expected smscs, routes\)$/,
      /^smscs\[0\]\.windw: unknown field$/,
      /^routes\[0\]\.priorty: unknown field \(expected prefix, smsc, priority\)$/,
    ]);
  });

  it('refuses values of the wrong JSON type', async () => {
    await problemsOf(
      {
        smscs: [
          { ...smsc, window: '100', registeredDelivery: 'false', mode: 1 },
          { name: 'b', host: 7, port: '2775', tls: 'yes', systemId: 'u' },
          { name: 'c', url: 42 },
          'd',
        ],
        routes: [{ prefix: 44, smsc: 'a', priority: '1' }, 'e'],
      },
      [
        /^smscs\[0\]\.window: must be a JSON number, got "100"$/,
        /^smscs\[0\]\.registeredDelivery: must be a JSON boolean, got "false"$/,
        /^smscs\[0\]\.mode: must be a JSON string, got 1$/,
        /^smscs\[1\]\.host: required/,
        /^smscs\[1\]\.port: must be an integer between 1 and 65535, got "2775"$/,
        /^smscs\[1\]\.tls: must be true or false, got "yes"$/,
        /^smscs\[2\]\.url: must be a string/,
        /^smscs\[3\]: must be an object/,
        /^routes\[0\]\.prefix: 44 is not digits/,
        /^routes\[0\]\.priority: must be an integer between 0 and 1000000, got "1"$/,
        /^routes\[1\]: must be an object with prefix and smsc$/,
      ],
    );
    await problemsOf({ smscs: {} }, [/^smscs: required, an array of SMSCs$/]);
    await problemsOf({ smscs: [smsc], routes: {} }, [/^routes: must be an array of routes/]);
    await problemsOf([smsc], [/must hold a JSON object/]);
  });

  it('reports values out of range with the setting, its allowed values and its JSON path', async () => {
    await problemsOf({ smscs: [{ ...smsc, binds: 0, longMessages: 'udh7' }, { name: 'b', url: 'smpp://u:p@h?window=abc' }] }, [
      /^smscs\[0\]\.binds must be an integer between 1 and 64, got 0$/,
      /^smscs\[0\]\.longMessages must be one of udh8, udh16, sar, payload, got "udh7"$/,
      /^smscs\[1\]\.url: window must be an integer between 1 and 10000, got "abc"$/,
    ]);
    await problemsOf({ smscs: [{ ...smsc, reconnectMinSeconds: 60, reconnectMaxSeconds: 1 }] }, [/^smscs\[0\]: reconnectMaxSeconds must not be below reconnectMinSeconds$/]);
  });

  it('refuses missing, invalid, duplicate and reserved names', async () => {
    await problemsOf(
      { smscs: [{ url: 'smpp://u:p@h1' }, { name: 'a b', url: 'smpp://u:p@h2' }, { name: 'x', url: 'smpp://u:p@h3' }, { name: 'x', url: 'smpp://u:p@h4' }, { name: 'sandbox', url: 'smpp://u:p@h5' }] },
      [
        /^smscs\[0\]\.name: required, 1–64 letters, digits, _ \. - \(got undefined\)$/,
        /^smscs\[1\]\.name: required, 1–64 letters/,
        /^smscs\[3\]\.name: "x" is already the name of an earlier SMSC$/,
        /^smscs\[4\]\.name: "sandbox" is reserved for the built-in sandbox network$/,
      ],
    );
    await problemsOf({ smscs: [{ name: 'a', url: 'smpp://u:p@h?name=b' }] }, [/^smscs\[0\]\.url: its name parameter differs from "name"/]);
  });

  it('refuses routes to SMSCs that are not defined, naming those that are', async () => {
    const problems = await problemsOf(
      { smscs: [{ name: 'operator-a', url: 'smpp://u:p@h' }, { name: 'backup', url: 'smpp://u:p@h?binds=0' }], routes: [{ prefix: '44', smsc: 'operatr-a' }, { prefix: '1', smsc: 'backup' }, { prefix: '2' }] },
      [
        /^routes\[0\]\.smsc: "operatr-a" is not a defined SMSC \(defined: operator-a, backup and sandbox\)$/,
        /^routes\[2\]\.smsc: undefined is not a defined SMSC/,
      ],
    );
    // backup has a bad setting, but it is defined: the route to it is not a second problem.
    assert.ok(!problems.some((p) => p.startsWith('routes[1]')), problems.join('\n'));
  });

  it('refuses bad prefixes and priorities', async () => {
    await problemsOf(
      { smscs: [smsc], routes: [{ prefix: '44x', smsc: 'a' }, { prefix: [], smsc: 'a' }, { prefix: '', smsc: 'a' }, { prefix: '1234567890123456', smsc: 'a' }, { smsc: 'a' }, { prefix: '1', smsc: 'a', priority: -1 }, { prefix: '1', smsc: 'a', priority: 1.5 }] },
      [
        /^routes\[0\]\.prefix: "44x" is not digits \(at most 15\) or "\*"$/,
        /^routes\[1\]\.prefix: must not be an empty list$/,
        /^routes\[2\]\.prefix: "" is not digits/,
        /^routes\[3\]\.prefix: "1234567890123456" is not digits/,
        /^routes\[4\]\.prefix: required/,
        /^routes\[5\]\.priority: must be an integer between 0 and 1000000, got -1$/,
        /^routes\[6\]\.priority: must be an integer/,
      ],
    );
    await problemsOf({ smscs: [smsc], routes: [] }, [/^routes: is empty, so nothing would be sent/]);
    await problemsOf({ smscs: [] }, [/^smscs: is empty and there are no routes/]);
  });

  it('refuses conflicting or missing address and credential fields', async () => {
    await problemsOf(
      {
        smscs: [
          { name: 'a', url: 'smpp://u:p@h', host: 'h', port: 1, tls: true, systemId: 'u' },
          { name: 'b', url: 'smpp://u:inurl@h', passwordEnv: 'B_PW' },
          { name: 'c', host: 'h', systemId: 'u', password: 'x', passwordEnv: 'C_PW' },
          { name: 'd', host: 'h' },
          { name: 'e', host: 'h', systemId: 'sixteen-chars-id' },
          { name: 'f', host: 'h', systemId: 'u', password: 'ninechars' },
          { name: 'g', host: 'h', systemId: 'u', password: 5 },
        ],
      },
      [
        /^smscs\[0\]\.host: give either url or host, not both$/,
        /^smscs\[0\]\.port: give either url or port, not both$/,
        /^smscs\[0\]\.tls: give either url or tls, not both$/,
        /^smscs\[0\]\.systemId: give either url or systemId, not both$/,
        /^smscs\[1\]: the url holds a password already/,
        /^smscs\[2\]: give either password or passwordEnv, not both$/,
        /^smscs\[3\]\.systemId: required, a string of 1 to 15 characters/,
        /^smscs\[4\]\.systemId: required/,
        /^smscs\[5\]: password has more than 8 characters/,
        /^smscs\[6\]\.password: must be a string$/,
      ],
      { B_PW: 'x', C_PW: 'y' },
    );
  });

  it('says which passwordEnv variable is not set, and never shows a password', async () => {
    const problems = await problemsOf(
      { smscs: [{ name: 'a', host: 'h', systemId: 'u', passwordEnv: 'A_SMSC_PASSWORD' }, { name: 'b', host: 'h', systemId: 'u', passwordEnv: 'B_PW' }, { name: 'c', host: 'h', systemId: 'u', passwordEnv: '' }] },
      [
        /^smscs\[0\]\.passwordEnv: the environment variable "A_SMSC_PASSWORD" is not set$/,
        /^smscs\[1\]: the variable B_PW has more than 8 characters/,
        /^smscs\[2\]\.passwordEnv: must be the name of an environment variable/,
      ],
      { B_PW: 'longsecretvalue' },
    );
    assert.ok(!problems.join('\n').includes('longsecretvalue'));
  });

  it('refuses TLS-only fields without TLS, and a CA file it cannot read', async () => {
    await problemsOf(
      { smscs: [{ ...smsc, tlsVerify: false }, { name: 'b', host: 'h', systemId: 'u', tlsCa: 'ca.pem' }, { name: 'c', host: 'h', systemId: 'u', tls: true, tlsCa: 'missing.pem' }] },
      [
        /^smscs\[0\]\.tlsVerify: only applies with TLS/,
        /^smscs\[1\]\.tlsCa: only applies with TLS/,
        /^smscs\[2\]\.tlsCa: cannot read missing\.pem: ENOENT \(no such file\)$/,
      ],
    );
  });

  it('lists every problem of the file in one error', async () => {
    const file = await write({ smscs: [{ ...smsc, windw: 1 }], routes: [{ prefix: 'x', smsc: 'nope' }] });
    await assert.rejects(loadRouteFile(file, {}, { inboundAccount: 'default' }), (error: RouteFileError) => {
      assert.equal(
        error.message,
        `route file ${file} is not valid:\n` +
          '  - smscs[0].windw: unknown field\n' +
          '  - routes[0].prefix: "x" is not digits (at most 15) or "*"\n' +
          '  - routes[0].smsc: "nope" is not a defined SMSC (defined: a and sandbox)',
      );
      return true;
    });
  });

  it('says when the file is missing, unreadable or not JSON', async () => {
    const missing = path.join(dir, 'none.json');
    await assert.rejects(loadRouteFile(missing, {}, { inboundAccount: 'd' }), (error: RouteFileError) => {
      assert.equal(error.message, `route file ${missing} cannot be read: ENOENT (no such file)`);
      return true;
    });
    await assert.rejects(loadRouteFile(dir, {}, { inboundAccount: 'd' }), /cannot be read: EISDIR \(it is a directory\)/);
    const file = await write('{\n  "smscs": [\n    { "name": "a", "password": "hunter2" }\n  ],\n}');
    await assert.rejects(loadRouteFile(file, {}, { inboundAccount: 'd' }), (error: RouteFileError) => {
      assert.equal(error.message, `route file ${file} is not JSON: Expected double-quoted property name at line 5, column 1`);
      return true;
    });
  });

  it('gives every setting a JSON type', () => {
    for (const [name, setting] of Object.entries(SMSC_SETTINGS)) assert.ok(['number', 'boolean', 'string'].includes(setting.json), name);
  });
});

describe('describeJsonError', () => {
  it('turns V8 positions into line and column and drops the quoted excerpt', () => {
    assert.equal(describeJsonError('Unexpected end of JSON input', '{'), 'Unexpected end of JSON input');
    assert.equal(describeJsonError('Expected \',\' or \'}\' after property value in JSON at position 12', '{\n  "a": 1\n "b"}'), 'Expected \',\' or \'}\' after property value at line 3, column 2');
    const raw = '{"smscs": [{"name": "a", "password": "secret" } ], x }';
    let message = '';
    try {
      JSON.parse(raw);
    } catch (error) {
      message = (error as Error).message;
    }
    const described = describeJsonError(message, raw);
    assert.doesNotMatch(described, /secret/);
    assert.match(described, /^(Unexpected token 'x'|Expected double-quoted property name)/);
    assert.match(described, /at line 1, column 52$/);
  });
});

describe('loadRoutingConfig', () => {
  it('is the sandbox alone when nothing is configured', async () => {
    assert.deepEqual(await loadRoutingConfig({ defaultAccount: 'd' }, {}), {
      smscs: [],
      routes: [{ prefixes: [''], smsc: 'sandbox', priority: 0, order: 0 }],
      source: 'sandbox',
    });
  });

  it('sends everything to the SMSC of SWITCHBOARD_SMPP_URL, with no sandbox fallback', async () => {
    const config = await loadRoutingConfig({ smppUrl: 'smpp://u:p@h', defaultAccount: 'acme' }, {});
    assert.equal(config.source, 'url');
    assert.deepEqual(config.smscs.map((s) => [s.name, s.inboundAccount]), [['smsc', 'acme']]);
    assert.deepEqual(config.routes, [{ prefixes: [''], smsc: 'smsc', priority: 0, order: 0 }]);
    const named = await loadRoutingConfig({ smppUrl: 'smpp://u:p@h?name=op-a', defaultAccount: 'acme' }, {});
    assert.deepEqual(named.routes.map((r) => r.smsc), ['op-a']);
  });

  it('reads the route file with the environment it is given', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-routing-config-'));
    const file = path.join(dir, 'routes.json');
    await writeFile(file, JSON.stringify({ smscs: [{ name: 'a', host: 'h', systemId: 'u', passwordEnv: 'PW' }] }));
    const config = await loadRoutingConfig({ routesFile: file, defaultAccount: 'acme' }, { PW: 'pw' }).finally(() => rm(dir, { recursive: true }));
    assert.deepEqual([config.smscs[0]!.password, config.smscs[0]!.inboundAccount], ['pw', 'acme']);
  });

  it('refuses SWITCHBOARD_ROUTES and SWITCHBOARD_SMPP_URL together', async () => {
    await assert.rejects(loadRoutingConfig({ routesFile: '/nowhere.json', smppUrl: 'smpp://u:p@h', defaultAccount: 'd' }, {}), (error: Error) => {
      assert.equal(error.message, 'set either SWITCHBOARD_ROUTES or SWITCHBOARD_SMPP_URL, not both');
      return true;
    });
  });

  it('reports a bad SWITCHBOARD_SMPP_URL by its name', async () => {
    await assert.rejects(loadRoutingConfig({ smppUrl: 'smpp://u:p@h?window=abc', defaultAccount: 'd' }, {}), (error: Error) => {
      assert.match(error.message, /^SWITCHBOARD_SMPP_URL: window must be an integer/);
      return true;
    });
  });
});
