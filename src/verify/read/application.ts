import { badRequest, type Violation } from '../../core/errors/api-problem.js';
import type { TwoFactorConfiguration, TwoFactorProtection } from '../../core/store/types.js';
import { DAY_MS, parseRate, parseTimeToLive, YEAR_MS, type Parsed } from '../durations.js';
import type { ApplicationBody, ConfigurationBody, ProtectionBody } from '../schemas/applications.js';

/** Infobip's defaults of an application's configuration. */
export const DEFAULT_CONFIGURATION: TwoFactorConfiguration = {
  pinAttempts: 10,
  allowMultiplePinVerifications: true,
  pinTimeToLive: '15m',
  verifyPinLimit: '1/3s',
  sendPinPerApplicationLimit: '10000/1d',
  sendPinPerPhoneNumberLimit: '3/1d',
};

export const DEFAULT_PREFIX_LENGTH = 6;

export interface ApplicationInput {
  name: string;
  enabled: boolean;
  configuration: TwoFactorConfiguration;
}

function check(value: string | undefined, parse: (text: string) => Parsed<unknown>, property: string, out: Violation[]): void {
  if (value === undefined) return;
  const parsed = parse(value);
  if (!parsed.ok) out.push({ property, violation: parsed.problem });
}

const sendRate = (text: string) => parseRate(text, YEAR_MS, '1 year');
export const verifyRate = (text: string) => parseRate(text, DAY_MS, '1 day');

function readConfiguration(body: ConfigurationBody | undefined, base: TwoFactorConfiguration, out: Violation[]): TwoFactorConfiguration {
  if (body === undefined) return base;
  check(body.pinTimeToLive, parseTimeToLive, 'configuration.pinTimeToLive', out);
  check(body.verifyPinLimit, verifyRate, 'configuration.verifyPinLimit', out);
  check(body.sendPinPerApplicationLimit, sendRate, 'configuration.sendPinPerApplicationLimit', out);
  check(body.sendPinPerPhoneNumberLimit, sendRate, 'configuration.sendPinPerPhoneNumberLimit', out);
  return {
    pinAttempts: body.pinAttempts ?? base.pinAttempts,
    allowMultiplePinVerifications: body.allowMultiplePinVerifications ?? base.allowMultiplePinVerifications,
    pinTimeToLive: body.pinTimeToLive ?? base.pinTimeToLive,
    verifyPinLimit: body.verifyPinLimit ?? base.verifyPinLimit,
    sendPinPerApplicationLimit: body.sendPinPerApplicationLimit ?? base.sendPinPerApplicationLimit,
    sendPinPerPhoneNumberLimit: body.sendPinPerPhoneNumberLimit ?? base.sendPinPerPhoneNumberLimit,
  };
}

/**
 * An application as a create or update asks for it. Configuration fields left out keep their value
 * (the defaults on create), and so does `enabled` (true on create).
 */
export function readApplication(body: ApplicationBody, current?: ApplicationInput): ApplicationInput {
  const out: Violation[] = [];
  if (body.name.trim() === '') out.push({ property: 'name', violation: 'must not be blank' });
  const configuration = readConfiguration(body.configuration, current?.configuration ?? DEFAULT_CONFIGURATION, out);
  if (out.length > 0) throw badRequest(out);
  return { name: body.name, enabled: body.enabled ?? current?.enabled ?? true, configuration };
}

/** Switchboard's protections of an application: every field replaced by what the request gives. */
export function readProtection(body: ProtectionBody): TwoFactorProtection {
  const out: Violation[] = [];
  check(body.prefixSendLimit, sendRate, 'prefixSendLimit', out);
  if (out.length > 0) throw badRequest(out);
  const protection: TwoFactorProtection = {};
  if (body.allowedCountryCodes?.length) protection.allowedCountryCodes = body.allowedCountryCodes;
  if (body.deniedCountryCodes?.length) protection.deniedCountryCodes = body.deniedCountryCodes;
  if (body.prefixSendLimit !== undefined) protection.prefixSendLimit = body.prefixSendLimit;
  if (body.prefixLength !== undefined) protection.prefixLength = body.prefixLength;
  return protection;
}
