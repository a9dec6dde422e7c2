import type { RcsContent, StoredMessage } from '../../core/store/types.js';
import { v3LogCommon, type V3LogCommon } from '../../sms/wire/log-shapes.js';

/**
 * One entry of `GET /rcs/2/logs` (reference §4.3): the SMS v3 log fields minus `mccMnc`, with the
 * RCS content echoed as the request gave it (its `type` included).
 */
export interface RcsLog extends V3LogCommon {
  content: RcsContent;
}

export function renderRcsLog(m: StoredMessage): RcsLog {
  const { campaignReferenceId, ...common } = v3LogCommon(m);
  const log: RcsLog = { ...common, content: m.content as RcsContent };
  if (campaignReferenceId !== undefined) log.campaignReferenceId = campaignReferenceId;
  return log;
}
