import type { PinRecord, TwoFactorApplication, TwoFactorProtection, TwoFactorTemplate } from '../core/store/types.js';
import { DEFAULT_PREFIX_LENGTH } from './read/application.js';
import { PIN_PLACEHOLDER } from './schemas/templates.js';

/** The 2FA API's shapes of what the store keeps. */

export const wireApplication = (a: TwoFactorApplication) => ({
  applicationId: a.applicationId,
  name: a.name,
  configuration: a.configuration,
  enabled: a.enabled,
});

export function wireTemplate(t: TwoFactorTemplate): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    messageId: t.messageId,
    applicationId: t.applicationId,
    messageText: t.messageText,
    pinPlaceholder: PIN_PLACEHOLDER,
    pinLength: t.pinLength,
    pinType: t.pinType,
  };
  if (t.senderId !== undefined) wire.senderId = t.senderId;
  wire.language = t.language;
  if (t.voiceName !== undefined) wire.voiceName = t.voiceName;
  if (t.repeatDTMF !== undefined) wire.repeatDTMF = t.repeatDTMF;
  wire.speechRate = t.speechRate;
  if (t.regional !== undefined) wire.regional = t.regional;
  return wire;
}

/** One Verification: times in Unix milliseconds, as integers. */
export function wireVerification(pin: PinRecord): Record<string, unknown> {
  const wire: Record<string, unknown> = { msisdn: pin.msisdn, verified: pin.verifiedAt !== undefined };
  if (pin.verifiedAt !== undefined) wire.verifiedAt = pin.verifiedAt;
  wire.sentAt = pin.sentAt;
  return wire;
}

export const wireProtection = (p: TwoFactorProtection | undefined) => ({
  allowedCountryCodes: p?.allowedCountryCodes ?? [],
  deniedCountryCodes: p?.deniedCountryCodes ?? [],
  ...(p?.prefixSendLimit === undefined ? {} : { prefixSendLimit: p.prefixSendLimit }),
  prefixLength: p?.prefixLength ?? DEFAULT_PREFIX_LENGTH,
});
