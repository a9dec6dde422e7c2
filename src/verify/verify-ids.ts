import { randomHex } from '../core/ids.js';

/**
 * 32 upper-case hex characters, as Infobip's pinIds, application and message ids are: the time in
 * milliseconds (12 characters), then 80 random bits. Time first for the reason of timeOrderedUuid:
 * a PIN's row then goes to the last page of the pins' key index, not to a random page each, so a
 * batch of PINs rewrites a page or two of it instead of one per PIN. The PIN itself comes from the
 * pinId under the deployment's secret key, so a pinId that tells its time gives nothing away.
 */
export function newVerifyId(now = Date.now()): string {
  return (now.toString(16).padStart(12, '0') + randomHex(10)).toUpperCase();
}
