import { randomUUID } from 'node:crypto';
import { generateApiKey, hashApiKey, keyLookup } from '../../src/core/auth/api-keys.js';
import type { Store } from '../../src/core/store/types.js';

/** Another account with its own API key, for isolation checks. */
export async function otherAccount(store: Store, now: number): Promise<{ accountId: string; key: string }> {
  const account = await store.accounts.ensure(`other-${randomUUID()}`, now);
  const key = generateApiKey();
  await store.keys.create({ id: randomUUID(), accountId: account.id, name: 'other', lookup: keyLookup(key), hash: hashApiKey(key), createdAt: now });
  return { accountId: account.id, key };
}
