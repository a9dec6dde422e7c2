import { ApiProblem, badRequest, violation, type Violation } from '../../core/errors/api-problem.js';
import { STATUS_GROUPS } from '../../core/pipeline/statuses.js';
import { arrayParam, timeParam } from '../../core/query-params.js';
import type { MessageChannel, MessageLogFilter } from '../../core/store/types.js';
import type { LogsQuery } from '../schemas/read-logs.js';
import { READ_WINDOW_MS } from './read-window.js';
import { checkDestination } from '../accept/destination.js';

/**
 * The store filter of a logs query. Every log endpoint shares it: the SMS ones differ only in the
 * names of the sender/destination parameters, passed in as already picked; RCS names its channel
 * and passes no mcc/mnc (it has no such parameters, so a client's are ignored).
 */
export function logFilterFrom(
  query: LogsQuery,
  scope: {
    accountId: string;
    now: number;
    sender?: string | undefined;
    destination?: string | undefined;
    mcc?: string | undefined;
    mnc?: string | undefined;
    channel?: MessageChannel;
  },
): MessageLogFilter {
  const problems: Violation[] = [];
  // Reads every parameter before failing, so one 400 names all the bad ones.
  const collect = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ApiProblem)) throw error;
      problems.push(...error.violations);
      return undefined;
    }
  };
  const filter: MessageLogFilter = {
    accountId: scope.accountId,
    since: scope.now - READ_WINDOW_MS,
    limit: query.limit,
  };
  if (scope.channel !== undefined) filter.channel = scope.channel;
  const set = <K extends keyof MessageLogFilter>(key: K, value: MessageLogFilter[K] | undefined): void => {
    if (value !== undefined) filter[key] = value;
  };
  set('sender', nonBlank(scope.sender));
  set('destination', storedDestination(nonBlank(scope.destination)));
  set('bulkIds', collect(() => arrayParam('bulkId', query.bulkId)));
  set('messageIds', collect(() => arrayParam('messageId', query.messageId)));
  set('campaignReferenceIds', collect(() => arrayParam('campaignReferenceId', query.campaignReferenceId)));
  if (query.generalStatus !== undefined) set('statusGroupId', STATUS_GROUPS.indexOf(query.generalStatus));
  set('sentSince', collect(() => timeParam('sentSince', query.sentSince)));
  set('sentUntil', collect(() => timeParam('sentUntil', query.sentUntil)));
  const mcc = nonBlank(scope.mcc);
  const mnc = nonBlank(scope.mnc);
  if (mnc !== undefined && mcc === undefined) problems.push({ property: 'mnc', violation: 'requires mcc' });
  set('mcc', mcc);
  set('mnc', mnc);
  set('entityId', nonBlank(query.entityId));
  set('applicationId', nonBlank(query.applicationId));
  if (problems.length > 0) throw badRequest(problems);
  return filter;
}

const nonBlank = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value;

/**
 * Cursors are opaque to clients: base64url of the sequence number of the last message returned.
 * Pages go newest first, so the next page holds messages with a smaller one.
 */
export function encodeCursor(pk: number): string {
  return Buffer.from(`pk:${pk}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const match = /^pk:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const pk = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(pk) || encodeCursor(pk) !== cursor) {
    throw violation('cursor', 'is not a cursor returned by this endpoint');
  }
  return pk;
}

/** Destinations are stored as bare digits; a filter written as sent (`+41 79…`) must find them. */
function storedDestination(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const check = checkDestination(value);
  return check.ok ? check.number : value;
}
