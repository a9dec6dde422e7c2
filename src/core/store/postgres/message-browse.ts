import type { MessageBrowseFilter, StoredMessage } from '../types.js';
import { toMessage } from './messages.js';
import { and, type Fragment, type Sql } from './shared.js';

/**
 * The console's list of messages: one walk of an account index (messages_account_pk_idx, or the RCS
 * one) from the newest (or from `beforePk`) down, filtered, stopping at the limit. The text filter
 * searches an SMS's text (or a binary one's hex), an RCS message's text, or its card's title and
 * description, case-insensitively.
 */
export async function browseMessages(sql: Sql, filter: MessageBrowseFilter): Promise<StoredMessage[]> {
  const where: Fragment[] = [sql`account_id = ${filter.accountId}`, sql`created_at >= ${filter.since}`];
  if (filter.pks !== undefined) where.push(sql`pk = ANY(${filter.pks}::int8[])`);
  if (filter.beforePk !== undefined) where.push(sql`pk < ${filter.beforePk}`);
  if (filter.channel !== undefined) where.push(sql`channel = ${filter.channel}`);
  if (filter.numbers !== undefined) {
    where.push(sql`(destination = ANY(${filter.numbers}::text[]) OR sender = ANY(${filter.numbers}::text[]))`);
  }
  if (filter.statusGroupId !== undefined) where.push(sql`status_group_id = ${filter.statusGroupId}`);
  if (filter.bulkId !== undefined) where.push(sql`bulk_id = ${filter.bulkId}`);
  if (filter.text !== undefined) {
    where.push(sql`strpos(lower(concat_ws(' ', coalesce(content->>'text', content->>'hex'),
      content->'content'->>'title', content->'content'->>'description')), ${filter.text.toLowerCase()}) > 0`);
  }
  const rows = await sql`SELECT * FROM messages WHERE ${and(sql, where)} ORDER BY pk DESC LIMIT ${filter.limit}`;
  return rows.map(toMessage);
}
