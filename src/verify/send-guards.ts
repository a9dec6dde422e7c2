import { type ApiProblem, tooManyRequests, violation } from '../core/errors/api-problem.js';
import type { RateWindowStore, RateWindowTake, TwoFactorApplication } from '../core/store/types.js';
import { mustParse, parseRate, YEAR_MS, DAY_MS, type Rate } from './durations.js';
import { DEFAULT_PREFIX_LENGTH } from './read/application.js';

/** Stored rates parsed once: an application's limits are read on every PIN sent and verified. */
const parsedRates = new Map<string, Rate>();
const PARSED_RATES_KEPT = 1_000;

function storedRate(text: string, maxWindowMs: number, what: string): Rate {
  const id = `${maxWindowMs}:${text}`;
  let rate = parsedRates.get(id);
  if (!rate) {
    rate = mustParse(parseRate(text, maxWindowMs, ''), what);
    if (parsedRates.size >= PARSED_RATES_KEPT) parsedRates.clear();
    parsedRates.set(id, rate);
  }
  return rate;
}

/**
 * 429 in the legacy envelope: TOO_MANY_REQUESTS, its text naming the limit that refused, and
 * Retry-After the seconds until that limit's window ends (the stores' windows are fixed, aligned on
 * multiples of their length).
 */
function refusedBy(what: string, windowMs: number, now: number): ApiProblem {
  const windowEnd = now - (now % windowMs) + windowMs;
  return tooManyRequests(`Too many requests: ${what}`, windowEnd - now);
}

/**
 * Where the application's protections let a PIN go. Country calling codes form a prefix code
 * (no code begins another), so a number belongs to a code exactly when it starts with it; a longer
 * prefix narrows a code shared by several countries (+1).
 */
export function checkDestinationCountry(application: TwoFactorApplication, msisdn: string, property: string): void {
  const protection = application.protection;
  if (protection === undefined) return;
  const denied = protection.deniedCountryCodes?.find((code) => msisdn.startsWith(code));
  if (denied !== undefined) throw violation(property, `the application sends no PIN to numbers starting ${denied}`);
  const allowed = protection.allowedCountryCodes;
  if (allowed !== undefined && allowed.length > 0 && !allowed.some((code) => msisdn.startsWith(code))) {
    throw violation(property, `the application sends PINs only to numbers starting ${allowed.join(', ')}`);
  }
}

/**
 * Counts one PIN send against the application's limits — the number, the prefix guard, the
 * application — all or none, so that a number refused does not use up the application's
 * allowance. A refusal is a 429, and nothing is sent.
 */
export async function takeSendAllowance(windows: RateWindowStore, application: TwoFactorApplication, msisdn: string, now: number): Promise<void> {
  const scope = `${application.accountId}:${application.applicationId}`;
  const { sendPinPerPhoneNumberLimit, sendPinPerApplicationLimit } = application.configuration;
  const limits: Array<{ take: RateWindowTake; refusal: string }> = [];
  const add = (key: string, rate: string, what: string, refusal: string): void => {
    const { attempts, windowMs } = storedRate(rate, YEAR_MS, what);
    limits.push({ take: { key, windowMs, limit: attempts }, refusal });
  };
  add(`2fa-send-number:${scope}:${msisdn}`, sendPinPerPhoneNumberLimit, 'sendPinPerPhoneNumberLimit', `sendPinPerPhoneNumberLimit ${sendPinPerPhoneNumberLimit} reached for this number`);
  const protection = application.protection;
  if (protection?.prefixSendLimit !== undefined) {
    const prefix = msisdn.slice(0, protection.prefixLength ?? DEFAULT_PREFIX_LENGTH);
    add(`2fa-send-prefix:${scope}:${prefix}`, protection.prefixSendLimit, 'prefixSendLimit', `prefixSendLimit ${protection.prefixSendLimit} reached for numbers starting ${prefix}`);
  }
  add(`2fa-send-app:${scope}`, sendPinPerApplicationLimit, 'sendPinPerApplicationLimit', `sendPinPerApplicationLimit ${sendPinPerApplicationLimit} reached`);
  const refused = await windows.takeAll(
    limits.map((l) => l.take),
    now,
  );
  if (refused >= 0) throw refusedBy(limits[refused]!.refusal, limits[refused]!.take.windowMs, now);
}

/** Counts one verification of a number's PIN against verifyPinLimit; a refusal is a 429 and counts no attempt. */
export async function takeVerifyAllowance(windows: RateWindowStore, application: TwoFactorApplication, msisdn: string, now: number): Promise<void> {
  const { verifyPinLimit } = application.configuration;
  const rate = storedRate(verifyPinLimit, DAY_MS, 'verifyPinLimit');
  const key = `2fa-verify:${application.accountId}:${application.applicationId}:${msisdn}`;
  if (!(await windows.take(key, rate.windowMs, rate.attempts, now))) throw refusedBy(`verifyPinLimit ${verifyPinLimit} reached for this number`, rate.windowMs, now);
}
