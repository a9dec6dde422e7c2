#!/usr/bin/env -S node --max-semi-space-size=16 --heap-growing-percent=100
// The flags are SERVER_NODE_FLAGS (src/node-flags.ts), which says why; npm start passes the same.
import { parseArgs } from 'node:util';
import { generateApiKey, hashApiKey, keyLookup } from './core/auth/api-keys.js';
import { systemClock } from './core/clock.js';
import { randomHex } from './core/ids.js';
import { formatInfobipTime } from './core/infobip-time.js';
import { openStore } from './core/store/open-store.js';
import type { Store } from './core/store/types.js';
import { type Config, isPostgresUrl, loadConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { startServer } from './server.js';
import { describeRouting } from './network/routing/describe-routing.js';
import { loadRoutingConfig } from './network/routing/routing-config.js';
import { runSmscSim } from './smsc-sim/cli.js';

const USAGE = `Usage: switchboard <command>

Commands:
  serve                       start the server (configuration from the environment; see README)
  keys create --account NAME  create an API key for the account (created if absent); prints it once
  keys list                   list API keys (never the keys themselves)
  keys revoke ID              revoke a key by its id
  migrate                     apply pending database migrations and exit
  routes                      check the SMSC and route configuration and list it
  smsc-sim [options]          run the SMSC simulator (see README; --help for its options)
`;

async function withStore<T>(config: Config, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema });
  try {
    await store.migrate();
    return await work(store);
  } finally {
    await store.close();
  }
}

async function serve(config: Config): Promise<void> {
  const server = await startServer({
    config,
    announceKey: (line) => process.stdout.write(`${line}\n`),
    // Without its engine the server would accept messages it can never send: better to exit and be restarted.
    onFatal: () => process.exit(1),
  });
  const store = isPostgresUrl(config.databaseUrl) ? 'PostgreSQL' : `SQLite ${config.databaseUrl}`;
  const smscs = server.ctx.config.routing?.smscs.map((smsc) => smsc.name) ?? [];
  const network = smscs.length > 0 ? `SMPP: ${smscs.join(', ')}` : 'sandbox network';
  process.stdout.write(`Switchboard listening on ${server.url} (${network}, ${store})\n`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    server.ctx.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.ctx.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function keys(config: Config, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values } = parseArgs({ args: rest, options: { account: { type: 'string' }, name: { type: 'string' } } });
    if (!values.account) throw new ConfigError('keys create needs --account NAME');
    const accountName = values.account;
    await withStore(config, async (store) => {
      const now = systemClock.now();
      const account = await store.accounts.ensure(accountName, now);
      const key = generateApiKey();
      const record = await store.keys.create({
        id: randomHex(8),
        accountId: account.id,
        name: values.name ?? 'created by CLI',
        lookup: keyLookup(key),
        hash: hashApiKey(key),
        createdAt: now,
      });
      process.stdout.write(`id: ${record.id}\naccount: ${account.name}\nkey: ${key}\n(the key is shown only once)\n`);
    });
    return;
  }
  if (action === 'list') {
    await withStore(config, async (store) => {
      const rows = await store.keys.list();
      const names = new Map<string, string>();
      for (const row of rows) {
        if (!names.has(row.accountId)) names.set(row.accountId, (await store.accounts.get(row.accountId))?.name ?? row.accountId);
      }
      process.stdout.write('ID                ACCOUNT           PREFIX    CREATED                       STATE\n');
      for (const row of rows) {
        const state = row.revokedAt === undefined ? 'active' : `revoked ${formatInfobipTime(row.revokedAt)}`;
        process.stdout.write(
          `${row.id.padEnd(18)}${(names.get(row.accountId) ?? '').padEnd(18)}${row.lookup.padEnd(10)}${formatInfobipTime(row.createdAt).padEnd(30)}${state}\n`,
        );
      }
    });
    return;
  }
  if (action === 'revoke' && rest[0]) {
    const id = rest[0];
    const revoked = await withStore(config, (store) => store.keys.revoke(id, systemClock.now()));
    if (!revoked) throw new ConfigError(`no active key with id ${id}`);
    process.stdout.write(`revoked ${id}\n`);
    return;
  }
  throw new ConfigError(USAGE);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === 'smsc-sim') {
    await runSmscSim(args, (line) => process.stdout.write(`${line}\n`));
    return;
  }
  const config = loadConfig();
  switch (command) {
    case 'routes':
      process.stdout.write(`${describeRouting(await loadRoutingConfig(config))}\n`);
      return;
    case 'serve':
      return serve(config);
    case 'keys':
      return keys(config, args);
    case 'migrate': {
      const store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema });
      try {
        const applied = await store.migrate();
        process.stdout.write(applied.length ? `applied migrations: ${applied.join(', ')}\n` : 'database is up to date\n');
      } finally {
        await store.close();
      }
      return;
    }
    default:
      throw new ConfigError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
