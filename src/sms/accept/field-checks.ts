import type { Violation } from '../../core/errors/api-problem.js';
import { parseInfobipTime } from '../../core/infobip-time.js';
import { validateWebhookUrl } from '../../core/webhook-url.js';
import type { DeliveryWindow } from '../../core/store/types.js';
import { parseHexContent } from '../encoding/index.js';
import type { DeliveryTimeWindowBody } from '../schemas/send-common.js';
import { MAX_SCHEDULE_AHEAD_MS, PAST_SEND_AT_TOLERANCE_MS } from './timing.js';

/**
 * Checks the schema cannot express. Each reads one field, appends a violation naming it (Infobip
 * path form) when it is wrong, and returns the value acceptance needs.
 */

/** Effective send time: the parsed `sendAt`, or `now` when it lies (a little) in the past. */
export function readSendAt(value: string, property: string, now: number, out: Violation[]): number | undefined {
  const at = parseInfobipTime(value);
  if (at === undefined) {
    out.push({ property, violation: 'must be a date-time such as 2025-03-04T10:15:30.000+0000' });
    return undefined;
  }
  if (at > now + MAX_SCHEDULE_AHEAD_MS) {
    out.push({ property, violation: 'must not be more than 180 days in the future' });
    return undefined;
  }
  if (at < now - PAST_SEND_AT_TOLERANCE_MS) {
    out.push({ property, violation: 'must not be more than 24 hours in the past' });
    return undefined;
  }
  return Math.max(at, now);
}

const MIN_WINDOW_MINUTES = 60;
const DAY_MINUTES = 24 * 60;

/**
 * `from` and `to` come together or not at all, and the window is open at least one hour a day.
 * `to` before `from` is a window spanning midnight (22:00–06:00), which the dispatcher supports.
 */
export function readDeliveryWindow(window: DeliveryTimeWindowBody, property: string, out: Violation[]): DeliveryWindow | undefined {
  const { from, to } = window;
  if ((from === undefined) !== (to === undefined)) {
    const missing = from === undefined ? 'from' : 'to';
    out.push({ property: `${property}.${missing}`, violation: 'must be given together with ' + (missing === 'from' ? 'to' : 'from') });
    return undefined;
  }
  const result: DeliveryWindow = { days: [...new Set(window.days)] };
  if (from !== undefined && to !== undefined) {
    const start = from.hour * 60 + from.minute;
    const end = to.hour * 60 + to.minute;
    // Minutes the window stays open each day; 0 when from equals to.
    const length = (end - start + DAY_MINUTES) % DAY_MINUTES;
    if (length < MIN_WINDOW_MINUTES) {
      out.push({ property: `${property}.to`, violation: 'must be at least 1 hour after from' });
      return undefined;
    }
    result.from = { hour: from.hour, minute: from.minute };
    result.to = { hour: to.hour, minute: to.minute };
  }
  return result;
}

/** Webhook targets must be URLs we can POST to (the rules shared with subscriptions). */
export function readWebhookUrl(url: string, property: string, out: Violation[]): string | undefined {
  const problem = validateWebhookUrl(url);
  if (problem === undefined) return url;
  out.push({ property, violation: problem });
  return undefined;
}

export function readHex(hex: string, property: string, out: Violation[]): Uint8Array | undefined {
  const bytes = parseHexContent(hex);
  if (typeof bytes === 'string') {
    out.push({ property, violation: bytes });
    return undefined;
  }
  return bytes;
}

/** An empty caller id means "none": an empty string cannot name a message. */
export const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);
