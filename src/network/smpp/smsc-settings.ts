import { ConfigError } from '../../config-error.js';
import { SMSC_DEFAULTS, type SmscOptions } from './smsc-options.js';

/** A problem in the SMSC configuration, worded for the person who wrote it (never with the password). */
export class SmscConfigError extends ConfigError {}

/**
 * The settings an SMSC takes beyond its address and credentials, by the names used both as
 * SWITCHBOARD_SMPP_URL query parameters and as route file fields. Each reads a string (URL) or a
 * JSON value (file) and writes the option it sets; `json` is the type a route file must give it,
 * so that `"window": "100"` is reported rather than guessed at.
 */
type Apply = (options: SmscOptions, value: unknown, where: string) => void;

export interface SmscSetting {
  json: 'number' | 'boolean' | 'string';
  apply: Apply;
}

const integer = (key: keyof SmscOptions, min: number, max: number, scale = 1): SmscSetting => ({
  json: 'number',
  apply: (options, value, where) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    const ok = typeof n === 'number' && Number.isFinite(n) && n >= min && n <= max && (scale !== 1 || Number.isInteger(n));
    if (!ok) throw new SmscConfigError(`${where} must be ${scale === 1 ? 'an integer' : 'a number'} between ${min} and ${max}, got ${JSON.stringify(value)}`);
    (options as unknown as Record<string, number>)[key] = Math.round((n as number) * scale);
  },
});

const oneOf = <T extends string>(key: keyof SmscOptions, allowed: readonly T[], aliases: Record<string, T> = {}): SmscSetting => ({
  json: 'string',
  apply: (options, value, where) => {
    const text = typeof value === 'string' ? (aliases[value] ?? value) : undefined;
    if (text === undefined || !allowed.includes(text as T)) {
      throw new SmscConfigError(`${where} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
    }
    (options as unknown as Record<string, string>)[key] = text;
  },
});

const boolean = (write: (options: SmscOptions, value: boolean) => void): SmscSetting => ({
  json: 'boolean',
  apply: (options, value, where) => {
    const parsed = value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
    if (parsed === undefined) throw new SmscConfigError(`${where} must be true or false, got ${JSON.stringify(value)}`);
    write(options, parsed);
  },
});

const text = (key: keyof SmscOptions, pattern: RegExp, describe: string): SmscSetting => ({
  json: 'string',
  apply: (options, value, where) => {
    if (typeof value !== 'string' || !pattern.test(value)) throw new SmscConfigError(`${where} must be ${describe}, got ${JSON.stringify(value)}`);
    (options as unknown as Record<string, string>)[key] = value;
  },
});

const addressPart = (side: 'source' | 'destination', part: 'ton' | 'npi'): SmscSetting => ({
  json: 'number',
  apply: (options, value, where) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 255) {
      throw new SmscConfigError(`${where} must be an integer between 0 and 255, got ${JSON.stringify(value)}`);
    }
    options[side] = { ...options[side], [part]: n };
  },
});

const ID_FORMATS = ['text', 'hex', 'decimal'] as const;

export const SMSC_SETTINGS: Readonly<Record<string, SmscSetting>> = {
  systemType: text('systemType', /^[\x20-\x7e]{0,12}$/, 'at most 12 printable ASCII characters'),
  mode: oneOf('mode', ['transceiver', 'transmitter+receiver'] as const, { trx: 'transceiver', 'tx+rx': 'transmitter+receiver' }),
  binds: integer('binds', 1, 64),
  window: integer('window', 1, 10_000),
  throughput: integer('throughput', 0, 100_000),
  enquireLinkSeconds: integer('enquireLinkMs', 0, 3600, 1000),
  responseTimeoutSeconds: integer('responseTimeoutMs', 0.1, 600, 1000),
  connectTimeoutSeconds: integer('connectTimeoutMs', 0.1, 600, 1000),
  reconnectMinSeconds: integer('reconnectMinMs', 0.01, 3600, 1000),
  reconnectMaxSeconds: integer('reconnectMaxMs', 0.01, 3600, 1000),
  longMessages: oneOf('longMessages', ['udh8', 'udh16', 'sar', 'payload'] as const),
  gsm7Packing: oneOf('gsm7Packing', ['unpacked', 'packed'] as const),
  gsm7DataCoding: integer('gsm7DataCoding', 0, 1),
  registeredDelivery: boolean((options, value) => (options.registeredDelivery = value)),
  sourceTon: addressPart('source', 'ton'),
  sourceNpi: addressPart('source', 'npi'),
  destTon: addressPart('destination', 'ton'),
  destNpi: addressPart('destination', 'npi'),
  submitIdFormat: oneOf('submitIdFormat', ID_FORMATS),
  receiptIdFormat: oneOf('receiptIdFormat', ID_FORMATS),
  inboundAccount: text('inboundAccount', /^[A-Za-z0-9_.@-]{1,64}$/, 'an account name (letters, digits, _ . @ -, up to 64)'),
  tlsVerify: boolean((options, value) => {
    if (options.tls) options.tls.rejectUnauthorized = value;
  }),
};

export const SMSC_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Options with every default, before the address, credentials and settings are applied. */
export function defaultSmscOptions(name: string, inboundAccount: string): SmscOptions {
  return { ...SMSC_DEFAULTS, name, host: '', systemId: '', password: '', source: {}, destination: {}, inboundAccount };
}

/** Checks what no single setting can: e.g. a reconnect range upside down. */
export function checkSmscOptions(options: SmscOptions, where: string): void {
  if (options.reconnectMaxMs < options.reconnectMinMs) {
    throw new SmscConfigError(`${where}: reconnectMaxSeconds must not be below reconnectMinSeconds`);
  }
}
