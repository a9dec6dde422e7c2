import type { ErrorFamily } from './envelopes.js';

/**
 * Which envelope an URL's errors use (reference §2.3): the SMS v3 and RCS v2 families use the flat
 * ApiError body; everything else (legacy SMS, inbox, 2FA, Calls, Subscriptions, our /sandbox API)
 * uses the legacy ApiException body. Deciding by path means unknown URLs get the right body too.
 */
export function errorFamilyForUrl(url: string): ErrorFamily {
  return url.startsWith('/sms/3/') || url.startsWith('/rcs/2/') ? 'new' : 'legacy';
}
