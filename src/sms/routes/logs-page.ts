import type { MessageLogFilter, MessageStore, StoredMessage } from '../../core/store/types.js';
import type { LogsQuery } from '../schemas/read-logs.js';
import { decodeCursor, encodeCursor } from './logs-filter.js';

/** A page of v3-generation logs (SMS v3, RCS v2): `cursor` only when the caller pages with cursors. */
export interface LogsPage<T> {
  results: T[];
  cursor?: { limit: number; nextCursor?: string };
}

/**
 * Reads one page of logs for `filter`, rendered by `render`. Paging is on when the query asks for
 * it (`useCursor=true`) or carries a cursor from a previous page, whether or not it repeated
 * useCursor; `nextCursor` is given while one more row than the limit exists.
 */
export async function readLogsPage<T>(
  messages: MessageStore,
  filter: MessageLogFilter,
  query: Pick<LogsQuery, 'useCursor' | 'cursor'>,
  render: (m: StoredMessage) => T,
): Promise<LogsPage<T>> {
  const paging = query.useCursor === true || query.cursor !== undefined;
  if (!paging) return { results: (await messages.listLogs(filter)).map(render) };

  const paged: MessageLogFilter = { ...filter, limit: filter.limit + 1 };
  if (query.cursor !== undefined) paged.beforePk = decodeCursor(query.cursor);
  const rows = await messages.listLogs(paged);
  const page = rows.slice(0, filter.limit);
  const cursor: NonNullable<LogsPage<T>['cursor']> = { limit: filter.limit };
  if (rows.length > filter.limit) cursor.nextCursor = encodeCursor(page[page.length - 1]!.pk);
  return { results: page.map(render), cursor };
}
