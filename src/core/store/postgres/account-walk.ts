import type { Fragment, Sql } from './shared.js';

/**
 * How a list of an account's messages walks them newest first: through message_keys' (account_id,
 * pk) index (migration 015), or, for RCS alone, through messages' own partial index of RCS
 * messages (messages_rcs_account_pk), which skips the account's SMS. The messages are `m` either
 * way; the account, pk and message id conditions name the table that holds the walked index.
 */
export interface AccountWalk {
  from: Fragment;
  order: Fragment;
  account(accountId: string): Fragment;
  before(pk: number): Fragment;
  pks(pks: number[]): Fragment;
  messageIds(messageIds: string[]): Fragment;
}

export function accountWalk(sql: Sql, rcsOnly: boolean): AccountWalk {
  if (rcsOnly) {
    return {
      from: sql`messages m`,
      order: sql`m.pk`,
      account: (accountId) => sql`m.account_id = ${accountId}`,
      before: (pk) => sql`m.pk < ${pk}`,
      pks: (pks) => sql`m.pk = ANY(${pks}::int8[])`,
      messageIds: (messageIds) => sql`m.message_id = ANY(${messageIds}::text[])`,
    };
  }
  return {
    from: sql`message_keys k JOIN messages m ON m.pk = k.pk`,
    order: sql`k.pk`,
    account: (accountId) => sql`k.account_id = ${accountId}`,
    before: (pk) => sql`k.pk < ${pk}`,
    pks: (pks) => sql`k.pk = ANY(${pks}::int8[])`,
    messageIds: (messageIds) => sql`k.message_id = ANY(${messageIds}::text[])`,
  };
}
