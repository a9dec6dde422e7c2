import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { withUnixSocket } from '../../src/core/store/postgres/connection-url.js';
import { openPostgresStore } from '../../src/core/store/postgres/postgres-store.js';
import { dropSchemas } from '../helpers/drop-schemas.js';

const testUrl = process.env.TEST_DATABASE_URL;
const schema = (name: string): string => `${name}_${process.pid}`;

after(async () => {
  if (testUrl !== undefined) await dropSchemas(testUrl, [schema('socket_test'), schema('commit_modes_test')]);
});

describe('PostgreSQL connection URLs', () => {
  it('reads a socket directory from the host parameter, with or without a name before it', () => {
    assert.deepEqual(withUnixSocket('postgres://app@/switchboard?host=/var/run/postgresql'), {
      url: 'postgres://app@localhost/switchboard',
      path: '/var/run/postgresql/.s.PGSQL.5432',
    });
    assert.deepEqual(withUnixSocket('postgresql:///switchboard?host=/tmp/'), {
      url: 'postgresql://localhost/switchboard',
      path: '/tmp/.s.PGSQL.5432',
    });
    assert.deepEqual(withUnixSocket('postgres://app:secret@db:6000/switchboard?host=/sockets&sslmode=disable'), {
      url: 'postgres://app:secret@db:6000/switchboard?sslmode=disable',
      path: '/sockets/.s.PGSQL.6000',
    });
  });

  it('leaves URLs without a socket directory as they are', () => {
    for (const url of ['postgres://app:secret@127.0.0.1:5433/switchboard', 'postgres://app@db/switchboard?host=db2', 'not a url']) {
      assert.deepEqual(withUnixSocket(url), { url });
    }
  });

  const socketDirectory = '/var/run/postgresql';
  const local = testUrl !== undefined && /@(127\.0\.0\.1|localhost)[:/]/.test(testUrl) && existsSync(`${socketDirectory}/.s.PGSQL.5432`);
  it('connects through the socket of the test database server', { skip: local ? false : 'no local PostgreSQL socket' }, async () => {
    const url = new URL(testUrl!);
    const socketUrl = `postgres://${url.username}@/${url.pathname.slice(1)}?host=${socketDirectory}`;
    const store = await openPostgresStore(socketUrl, { schema: schema('socket_test') });
    try {
      await store.migrate();
      const account = await store.accounts.ensure('over-the-socket', 0);
      assert.equal((await store.accounts.ensure('over-the-socket', 1)).id, account.id);
    } finally {
      await store.close();
    }
  });
});

describe('PostgreSQL pool without durable commits', () => {
  it('connects with synchronous_commit off and writes what a durable pool reads', { skip: testUrl ? false : 'TEST_DATABASE_URL is not set' }, async () => {
    const fast = await openPostgresStore(testUrl!, { schema: schema('commit_modes_test'), durableCommits: false, max: 2 });
    const durable = await openPostgresStore(testUrl!, { schema: schema('commit_modes_test'), max: 2 });
    try {
      await fast.migrate();
      const written = await fast.accounts.ensure(`fast-${Date.now()}`, 0);
      assert.deepEqual(await durable.accounts.get(written.id), written);
    } finally {
      await fast.close();
      await durable.close();
    }
  });
});
