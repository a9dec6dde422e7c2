import { timeParam } from '../../core/query-params.js';
import type { CallFilter } from '../../core/store/types.js';
import type { CallsQuery } from '../schemas/calls.js';

export interface ReadCallFilter {
  filter: CallFilter;
  /** The query filters on a conferenceId, dialogId or bulkId, which no call has: the route answers an empty page. */
  matchesNothing: boolean;
}

/** A phone number is stored without its `+`; other addresses (SIP usernames…) as given. */
const storedAddress = (value: string): string => (/^\+\d+$/.test(value) ? value.slice(1) : value);

/** A blank query value filters nothing, as if it were absent. */
const given = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value);

/**
 * The store filter of `GET /calls/1/calls` (`live`: calls not yet ended) and `GET /calls/1/calls/history`
 * (finished calls), for one account, reaching back to `since`. Throws a 400 naming `startTimeAfter`
 * when it is not a timestamp.
 */
export function readCallFilter(query: CallsQuery, live: boolean, since: number, accountId: string): ReadCallFilter {
  const filter: CallFilter = { accountId, live, since, page: query.page, size: query.size };
  if (query.type !== undefined) filter.type = query.type;
  const configurationId = given(query.callsConfigurationId);
  if (configurationId !== undefined) filter.configurationId = configurationId;
  const applicationId = given(query.applicationId);
  if (applicationId !== undefined) filter.applicationId = applicationId;
  const from = given(query.from);
  if (from !== undefined) filter.from = storedAddress(from);
  const to = given(query.to);
  if (to !== undefined) filter.to = storedAddress(to);
  if (query.direction !== undefined) filter.direction = query.direction;
  if (query.status !== undefined) filter.state = query.status;
  const startTimeAfter = timeParam('startTimeAfter', query.startTimeAfter);
  if (startTimeAfter !== undefined) filter.startTimeAfter = startTimeAfter;
  // UNCONFIRMED: conferenceId, dialogId and bulkId are accepted and, as Switchboard has no conferences, dialogs or bulk calls, match nothing.
  const matchesNothing = [query.conferenceId, query.dialogId, query.bulkId].some((id) => given(id) !== undefined);
  return { filter, matchesNothing };
}
