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

export { otherAccount as secondAccount } from '../helpers/accounts.js';

export const textMessage = (to: string | string[], text = 'Hello', extra: Record<string, unknown> = {}) => ({
  destinations: (Array.isArray(to) ? to : [to]).map((t) => ({ to: t })),
  content: { text },
  ...extra,
});
