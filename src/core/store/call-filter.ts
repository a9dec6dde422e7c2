import type { CallFilter } from './types.js';

/**
 * The conditions of a call list, as (column, operator, value) triples that both drivers turn into
 * SQL: the SQL text depends only on which filters are set.
 */
export function callConditions(filter: CallFilter): Array<[column: string, operator: '=' | '>=', value: string | number | boolean]> {
  const out: Array<[string, '=' | '>=', string | number | boolean]> = [
    ['account_id', '=', filter.accountId],
    ['live', '=', filter.live],
    ['start_time', '>=', Math.max(filter.since, filter.startTimeAfter ?? filter.since)],
  ];
  if (filter.type !== undefined) out.push(['endpoint_type', '=', filter.type]);
  if (filter.configurationId !== undefined) out.push(['configuration_id', '=', filter.configurationId]);
  if (filter.applicationId !== undefined) out.push(['application_id', '=', filter.applicationId]);
  if (filter.from !== undefined) out.push(['from_id', '=', filter.from]);
  if (filter.to !== undefined) out.push(['to_id', '=', filter.to]);
  if (filter.direction !== undefined) out.push(['direction', '=', filter.direction]);
  if (filter.state !== undefined) out.push(['state', '=', filter.state]);
  return out;
}
