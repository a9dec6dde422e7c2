import type { Config } from '../../config.js';
import type { Clock } from '../clock.js';
import { randomHex } from '../ids.js';
import type { Store } from '../store/types.js';
import { generateApiKey, hashApiKey, hashesEqual, keyLookup } from './api-keys.js';

/**
 * Makes sure the default account can be used right after start: the configured key exists, or,
 * when the account has no active key and none is configured, a new one is generated and announced
 * once (it is stored hashed, so it can never be shown again).
 */
export async function ensureBootstrapKey(
  store: Store,
  config: Config,
  clock: Clock,
  announce: (line: string) => void,
): Promise<void> {
  const account = await store.accounts.ensure(config.defaultAccount, clock.now());
  if (config.apiKey) {
    const hash = hashApiKey(config.apiKey);
    const existing = await store.keys.findByLookup(keyLookup(config.apiKey));
    const match = existing.find((k) => hashesEqual(k.hash, hash));
    if (match && match.revokedAt === undefined) return;
    if (match) throw new Error('SWITCHBOARD_API_KEY was revoked; configure another key');
    await store.keys.create({
      id: randomHex(8),
      accountId: account.id,
      name: 'SWITCHBOARD_API_KEY',
      lookup: keyLookup(config.apiKey),
      hash,
      createdAt: clock.now(),
    });
    return;
  }
  if ((await store.keys.countActive(account.id)) > 0) return;
  const key = generateApiKey();
  await store.keys.create({
    id: randomHex(8),
    accountId: account.id,
    name: 'generated at first start',
    lookup: keyLookup(key),
    hash: hashApiKey(key),
    createdAt: clock.now(),
  });
  announce(`Generated an API key for account "${account.name}" (shown only once): ${key}`);
}
