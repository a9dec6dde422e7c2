import type { SmscOptions } from './smsc-options.js';
import { checkSmscOptions, defaultSmscOptions, SMSC_NAME, SMSC_SETTINGS, SmscConfigError } from './smsc-settings.js';

export { SmscConfigError };

export const SMPP_PORT = 2775;
export const SMPPS_PORT = 3550;

/** SMPP 3.4 C-Octet strings: system_id is at most 16 octets, password 9, both with the closing NUL. */
export const MAX_SYSTEM_ID_LENGTH = 15;
export const MAX_PASSWORD_LENGTH = 8;

const FORM = 'smpp://SYSTEM_ID:PASSWORD@HOST:PORT?setting=value';

/**
 * `smpp://SYSTEM_ID:PASSWORD@HOST:PORT?setting=value&…` (`smpps://` for TLS) → SmscOptions. The
 * settings are those of SMSC_SETTINGS plus `name`; `label` prefixes every error (e.g.
 * "SWITCHBOARD_SMPP_URL"), and no error ever repeats the password.
 */
export function parseSmscUrl(url: string, label: string, defaults: { name: string; inboundAccount: string }): SmscOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SmscConfigError(`${label} is not a URL of the form ${FORM}`);
  }
  if (parsed.protocol !== 'smpp:' && parsed.protocol !== 'smpps:') {
    throw new SmscConfigError(`${label} must start with smpp:// or smpps://, got ${parsed.protocol}//`);
  }
  // Anything after the port but the query is a typo (a path, a fragment), not something to ignore.
  if ((parsed.pathname !== '' && parsed.pathname !== '/') || parsed.hash !== '') {
    throw new SmscConfigError(`${label} must end with HOST:PORT or a ?query (${FORM}), got a path or #fragment`);
  }
  const options = defaultSmscOptions(defaults.name, defaults.inboundAccount);
  const tls = parsed.protocol === 'smpps:';
  if (tls) options.tls = { rejectUnauthorized: true };
  options.host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (options.host === '') throw new SmscConfigError(`${label} has no host (${FORM})`);
  options.port = parsed.port === '' ? (tls ? SMPPS_PORT : SMPP_PORT) : Number(parsed.port);
  if (options.port === 0) throw new SmscConfigError(`${label}: the port must be between 1 and 65535, got 0`);
  options.systemId = decodeUserInfo(parsed.username, label, 'system id');
  options.password = decodeUserInfo(parsed.password, label, 'password');
  if (options.systemId === '') throw new SmscConfigError(`${label} has no system id (${FORM})`);
  if (options.systemId.length > MAX_SYSTEM_ID_LENGTH) {
    throw new SmscConfigError(`${label}: the system id has more than ${MAX_SYSTEM_ID_LENGTH} characters (SMPP 3.4 allows ${MAX_SYSTEM_ID_LENGTH})`);
  }
  if (options.password.length > MAX_PASSWORD_LENGTH) {
    throw new SmscConfigError(`${label}: the password has more than ${MAX_PASSWORD_LENGTH} characters (SMPP 3.4 allows ${MAX_PASSWORD_LENGTH})`);
  }
  const seen = new Set<string>();
  // A '+' stays a '+' (form encoding would make it a space): `mode=tx+rx` is what people write.
  for (const [key, value] of new URLSearchParams(parsed.search.replaceAll('+', '%2B'))) {
    const where = `${label}: ${key}`;
    if (seen.has(key)) throw new SmscConfigError(`${where} is given more than once`);
    seen.add(key);
    if (key === 'name') {
      if (!SMSC_NAME.test(value) || value === 'sandbox') {
        throw new SmscConfigError(`${where} must be 1–64 letters, digits, _ . - and not "sandbox", got ${JSON.stringify(value)}`);
      }
      options.name = value;
      continue;
    }
    const setting = SMSC_SETTINGS[key];
    if (!setting) throw new SmscConfigError(`${label}: unknown parameter "${key}" (known: name, ${Object.keys(SMSC_SETTINGS).join(', ')})`);
    if (key === 'tlsVerify' && !tls) throw new SmscConfigError(`${where} only applies to smpps://`);
    setting.apply(options, value, where);
  }
  checkSmscOptions(options, label);
  return options;
}

function decodeUserInfo(raw: string, label: string, what: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    // The raw text is not quoted: it may be (part of) the password.
    throw new SmscConfigError(`${label}: the ${what} holds a % that does not start a %XX escape (write % as %25)`);
  }
}
