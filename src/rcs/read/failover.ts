import type { Violation } from '../../core/errors/api-problem.js';
import { MAX_VALIDITY_MS, VALIDITY_UNIT_MS, validityMs } from '../../sms/accept/timing.js';
import type { ValidityPeriodBody } from '../../sms/schemas/send-common.js';
import type { MmsFailoverBody, MmsSegmentBody, SmsFailoverBody } from '../schemas/failover.js';
import type { RcsMessageBody } from '../schemas/send.js';
import { checkContentUrl, requireFields } from './field-checks.js';
import type { MmsFailover, RcsFailover, SmsFailover } from './send-request.js';

/** Fields each MMS segment type requires besides `type`. */
const SEGMENT_REQUIRES: Record<MmsSegmentBody['type'], ReadonlyArray<keyof MmsSegmentBody & string>> = {
  TEXT: ['text'],
  LINK: ['contentUrl'],
  SMIL: ['contentType', 'smil'],
  UPLOADED_REFERENCE: ['uploadedContentId'],
};

/** Validity of a message or its failover, capped at 48 h as Infobip does; 48 h when absent. */
export const readValidity = (period: ValidityPeriodBody | undefined): number =>
  period === undefined ? MAX_VALIDITY_MS : validityMs(period.amount, VALIDITY_UNIT_MS[period.timeUnit ?? 'MINUTES']);

/**
 * The failover of a message, from its `options` at `path` (`messages[0].options`): at most one of
 * smsFailover and mmsFailover. Undefined when there is none or it is wrong (with a violation).
 */
export function readFailover(options: RcsMessageBody['options'], path: string, out: Violation[]): RcsFailover | undefined {
  const sms = options?.smsFailover;
  const mms = options?.mmsFailover;
  if (sms !== undefined && mms !== undefined) {
    out.push({ property: `${path}.mmsFailover`, violation: 'must not be given together with smsFailover' });
    return undefined;
  }
  if (sms !== undefined) return readSmsFailover(sms);
  if (mms !== undefined) return readMmsFailover(mms, `${path}.mmsFailover`, out);
  return undefined;
}

function readSmsFailover(body: SmsFailoverBody): SmsFailover {
  // UNCONFIRMED: a failover without its own validityPeriod gets the SMS default (48 h), not the RCS message's validity.
  const failover: SmsFailover = { channel: 'SMS', text: body.text, validityMs: readValidity(body.validityPeriod) };
  if (body.sender !== undefined) failover.sender = body.sender;
  if (body.regional !== undefined) failover.regional = body.regional;
  return failover;
}

function readMmsFailover(body: MmsFailoverBody, path: string, out: Violation[]): MmsFailover | undefined {
  const before = out.length;
  body.content.messageSegments.forEach((segment, i) => {
    const segmentPath = `${path}.content.messageSegments[${i}]`;
    if (!requireFields(segment, SEGMENT_REQUIRES[segment.type], segmentPath, out)) return;
    if (segment.type === 'LINK') checkContentUrl(segment.contentUrl!, `${segmentPath}.contentUrl`, out);
  });
  if (out.length > before) return undefined;
  const failover: MmsFailover = { channel: 'MMS', validityMs: readValidity(body.validityPeriod), segments: body.content.messageSegments };
  if (body.sender !== undefined) failover.sender = body.sender;
  if (body.content.title !== undefined) failover.title = body.content.title;
  return failover;
}
