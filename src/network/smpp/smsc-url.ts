import type { SmscOptions } from './smsc-options.js';
import { checkSmscOptions, defaultSmscOptions, SMSC_NAME, SMSC_SETTINGS, SmscConfigError } from './smsc-settings.js';

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
    throw new SmscConfigError(`${label} is not a URL of the form smpp://SYSTEM_ID:PASSWORD@HOST:PORT`);
  }
  if (parsed.protocol !== 'smpp:' && parsed.protocol !== 'smpps:') {
    throw new SmscConfigError(`${label} must start with smpp:// or smpps://, got ${parsed.protocol}//`);
  }
  const options = defaultSmscOptions(defaults.name, defaults.inboundAccount);
  const tls = parsed.protocol === 'smpps:';
  if (tls) options.tls = { rejectUnauthorized: true };
  options.host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (options.host === '') throw new SmscConfigError(`${label} has no host`);
  options.port = parsed.port === '' ? (tls ? 3550 : 2775) : Number(parsed.port);
  options.systemId = decodeURIComponent(parsed.username);
  options.password = decodeURIComponent(parsed.password);
  if (options.systemId === '') throw new SmscConfigError(`${label} has no system id (smpp://SYSTEM_ID:PASSWORD@HOST:PORT)`);
  if (options.systemId.length > 15) throw new SmscConfigError(`${label}: the system id has more than 15 characters`);
  if (options.password.length > 8) throw new SmscConfigError(`${label}: the password has more than 8 characters (SMPP 3.4 allows 8)`);
  for (const [key, value] of parsed.searchParams) {
    const where = `${label}: ${key}`;
    if (key === 'name') {
      if (!SMSC_NAME.test(value) || value === 'sandbox') throw new SmscConfigError(`${where} must be 1–64 letters, digits, _ . - and not "sandbox"`);
      options.name = value;
      continue;
    }
    const apply = SMSC_SETTINGS[key];
    if (!apply) throw new SmscConfigError(`${label}: unknown parameter "${key}" (known: name, ${Object.keys(SMSC_SETTINGS).join(', ')})`);
    if (key === 'tlsVerify' && !tls) throw new SmscConfigError(`${where} only applies to smpps://`);
    apply(options, value, where);
  }
  checkSmscOptions(options, label);
  return options;
}
