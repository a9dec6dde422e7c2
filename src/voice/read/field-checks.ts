import type { Violation } from '../../core/errors/api-problem.js';
import { validateWebhookUrl } from '../../core/webhook-url.js';
import { MAX_MAP_KEY_LENGTH, type StringMap } from '../schemas/common.js';

/**
 * Checks the Calls schemas cannot express (or cannot name well). Each reads one field, appends a
 * violation naming it (Infobip's path form, `endpoint.phoneNumber`) when it is wrong, and returns
 * the value to use, or undefined when it is wrong.
 */

/** `content` + `fileUrl` → `content.fileUrl`; a top-level field has no prefix. */
export const propertyPath = (prefix: string, name: string): string => (prefix === '' ? name : `${prefix}.${name}`);

const E164 = /^\+?[0-9]{1,15}$/;

/** A phone number in E.164 form (1 to 15 digits, an optional leading `+`), returned without the `+`. */
export function readPhoneNumber(value: string, property: string, out: Violation[]): string | undefined {
  if (E164.test(value)) return value.startsWith('+') ? value.slice(1) : value;
  out.push({ property, violation: 'must be a phone number in E.164 format: 1 to 15 digits, optionally after a +' });
  return undefined;
}

/** A string map (customData, SIP customHeaders) whose keys are 1 to MAX_MAP_KEY_LENGTH characters. */
export function readStringMap(map: StringMap | undefined, property: string, out: Violation[]): StringMap | undefined {
  if (map === undefined) return undefined;
  for (const key of Object.keys(map)) {
    if (key.length === 0 || key.length > MAX_MAP_KEY_LENGTH) {
      out.push({ property, violation: `key size must be between 1 and ${MAX_MAP_KEY_LENGTH}` });
      return undefined;
    }
  }
  return map;
}

/** Text that must hold something besides white space (a schema's minLength lets "  " through). */
export function readNonBlank(value: string, property: string, out: Violation[]): string | undefined {
  if (value.trim() !== '') return value;
  out.push({ property, violation: 'must not be blank' });
  return undefined;
}

/**
 * An audio URL: absolute http(s), no credentials, no white space — the webhook URL rules, which
 * allow local hosts, so audio served next to Switchboard can be played.
 */
export function readAudioUrl(url: string, property: string, out: Violation[]): string | undefined {
  // Whether the URL serves WAV or MP3 is found when the audio is fetched (an ERROR event), not from its name.
  const problem = validateWebhookUrl(url);
  if (problem === undefined) return url;
  out.push({ property, violation: problem });
  return undefined;
}

/** An empty id names nothing: it counts as not given. */
export const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

/** `{customData}` to spread into an input, or nothing when there is none. */
export const customDataField = (customData: StringMap | undefined): { customData?: StringMap } =>
  customData === undefined ? {} : { customData };
