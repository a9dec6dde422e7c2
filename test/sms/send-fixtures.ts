import { randomUUID } from 'node:crypto';
import { generateApiKey, hashApiKey, keyLookup } from '../../src/core/auth/api-keys.js';
import type { Store } from '../../src/core/store/types.js';
import type { TestServer } from '../helpers/server.js';

export const PENDING_ACCEPTED_WIRE = {
  groupId: 1,
  groupName: 'PENDING',
  id: 26,
  name: 'PENDING_ACCEPTED',
  description: 'Message sent to next instance',
};

export const NEW_ENVELOPE_KEYS = ['errorCode', 'description', 'action', 'violations', 'resources'];

export async function accountOf(server: TestServer): Promise<string> {
  const account = await server.ctx.store.accounts.findByName(server.ctx.config.defaultAccount);
  if (!account) throw new Error('the test server has no default account');
  return account.id;
}

/** A second account with its own API key. */
export async function secondAccount(store: Store, now: number): Promise<{ accountId: string; key: string }> {
  const account = await store.accounts.ensure(`second-${randomUUID()}`, now);
  const key = generateApiKey();
  await store.keys.create({ id: randomUUID(), accountId: account.id, name: 'second', lookup: keyLookup(key), hash: hashApiKey(key), createdAt: now });
  return { accountId: account.id, key };
}

export const textMessage = (to: string | string[], text = 'Hello', extra: Record<string, unknown> = {}) => ({
  destinations: (Array.isArray(to) ? to : [to]).map((t) => ({ to: t })),
  content: { text },
  ...extra,
});
