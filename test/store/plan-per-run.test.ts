import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { openPostgresStore } from '../../src/core/store/postgres/postgres-store.js';
import type { Store } from '../../src/core/store/types.js';
import { dropSchemas } from '../helpers/drop-schemas.js';
import { newMessage } from '../helpers/stores.js';

const testUrl = process.env.TEST_DATABASE_URL;
const SSL_REQUEST = 80877103;

/** The parameters of a startup message (after its length and protocol version). */
function startupParameters(message: Buffer): Map<string, string> {
  const parts = message.subarray(8).toString('utf8').split('\u0000');
  const parameters = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) parameters.set(parts[i]!, parts[i + 1]!);
  return parameters;
}

/** A FATAL ErrorResponse as PgBouncer sends it for a startup parameter it does not know. */
function unsupportedParameter(name: string): Buffer {
  const fields = Buffer.from(`SFATAL\u0000VFATAL\u0000C08P01\u0000Munsupported startup parameter: ${name}\u0000\u0000`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

/**
 * A pooler in front of the test database: it records each connection's startup parameters and,
 * when `refuse` names one, answers a startup carrying it as PgBouncer does, else passes the
 * connection through.
 */
async function startPooler(target: URL, refuse?: string): Promise<{ url: string; startups: Array<Map<string, string>>; close(): Promise<void> }> {
  const startups: Array<Map<string, string>> = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 8 || buffered.length < buffered.readInt32BE(0)) return;
      const length = buffered.readInt32BE(0);
      if (buffered.readInt32BE(4) === SSL_REQUEST) {
        buffered = buffered.subarray(length);
        client.write('N');
        return;
      }
      client.off('data', onData);
      const parameters = startupParameters(buffered.subarray(0, length));
      startups.push(parameters);
      if (refuse !== undefined && parameters.has(refuse)) {
        client.end(unsupportedParameter(refuse));
        return;
      }
      const upstream = connect(Number(target.port || 5432), target.hostname);
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      upstream.write(buffered);
      client.pipe(upstream);
      upstream.pipe(client);
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = new URL(target.href);
  url.hostname = '127.0.0.1';
  url.port = String(typeof address === 'object' && address ? address.port : 0);
  return {
    url: url.href,
    startups,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A message stored (on the writes-by-key pool, where there is one) is found by id and listed. */
async function storesAndFinds(store: Store, accountId: string): Promise<void> {
  const message = newMessage(accountId);
  const [pk] = await store.messages.insertMany([message]);
  assert.equal(typeof pk, 'number');
  assert.equal((await store.messages.get(accountId, message.messageId))?.pk, pk);
  assert.deepEqual(await store.messages.insertMany([message]), ['duplicate']);
}

describe('PostgreSQL plans per run', { skip: testUrl ? false : 'TEST_DATABASE_URL is not set' }, () => {
  const schemas: string[] = [];
  after(() => dropSchemas(testUrl!, schemas));

  /**
   * Opens a store through a pooler that refuses `refuse` (if given), stores an account and a
   * message and finds them again; returns what the pooler saw and what the store warned.
   */
  async function throughPooler(refuse: string | undefined, name: string): Promise<{ startups: Array<Map<string, string>>; warnings: string[] }> {
    const pooler = await startPooler(new URL(testUrl!), refuse);
    const schema = `plan_test_${process.pid}_${name}`;
    schemas.push(schema);
    const warnings: string[] = [];
    const store = await openPostgresStore(pooler.url, { schema, max: 2, log: { warn: (_details, message) => void warnings.push(message) } });
    try {
      await store.migrate();
      const account = await store.accounts.ensure(name, 0);
      assert.deepEqual(await store.accounts.get(account.id), account);
      await storesAndFinds(store, account.id);
    } finally {
      await store.close();
      await pooler.close();
    }
    return { startups: pooler.startups, warnings };
  }

  it('asks every connection to plan statements for their parameters, but those of the writes by key to keep one plan made of index scans', async () => {
    const { startups, warnings } = await throughPooler(undefined, 'planned');
    assert.deepEqual(warnings, []);
    const modes = startups.map((parameters) => parameters.get('plan_cache_mode'));
    assert.ok(modes.includes('force_custom_plan'));
    assert.ok(modes.includes('force_generic_plan'));
    for (const parameters of startups) {
      if (parameters.get('plan_cache_mode') === 'force_custom_plan') continue;
      assert.equal(parameters.get('plan_cache_mode'), 'force_generic_plan');
      for (const setting of ['enable_seqscan', 'enable_hashjoin', 'enable_mergejoin', 'jit']) assert.equal(parameters.get(setting), 'off', setting);
    }
  });

  it('plans the writes by key every run too, and says so, where a pooler refuses the planner settings', async () => {
    const { startups, warnings } = await throughPooler('enable_seqscan', 'every_run');
    assert.deepEqual(warnings, ['the database connection refused planner settings; writes by key are planned every run']);
    const connected = startups.filter((parameters) => !parameters.has('enable_seqscan'));
    assert.ok(connected.length > 0);
    for (const parameters of connected) assert.equal(parameters.get('plan_cache_mode'), 'force_custom_plan');
  });

  it('connects without it, and says so, where a pooler refuses the setting', async () => {
    const { startups, warnings } = await throughPooler('plan_cache_mode', 'unplanned');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /plan_cache_mode/);
    assert.equal(startups[0]!.get('plan_cache_mode'), 'force_custom_plan', 'asked first');
    const later = startups.slice(1);
    assert.ok(later.length > 0);
    for (const parameters of later) assert.equal(parameters.has('plan_cache_mode'), false);
  });
});
