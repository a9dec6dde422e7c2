/**
 * JSON-schema fragments every API module shares. Request schemas ignore unknown properties, as
 * Infobip does; the wire fragments are for response schemas, which list every key they may carry.
 */

// UNCONFIRMED bound: Infobip leaves its string maps (Calls customData, SIP customHeaders, 2FA placeholders) unbounded; 50 keys of ≤128 characters, values of ≤1024 characters.
export const MAX_MAP_KEYS = 50;
export const MAX_MAP_KEY_LENGTH = 128;
export const MAX_MAP_VALUE_LENGTH = 1024;

export type StringMap = Record<string, string>;

/** A string of at most `maxLength` characters; `minLength` 1 refuses the empty string ("must not be blank"). */
export const text = (maxLength: number, minLength: 0 | 1 = 0, description?: string) =>
  ({
    type: 'string',
    ...(minLength === 0 ? {} : { minLength }),
    maxLength,
    ...(description === undefined ? {} : { description }),
  }) as const;

/**
 * A string → string map of bounded size. Key lengths are checked by the readers (read/field-checks),
 * which can say what is wrong with a key; a `propertyNames` failure would read as a bad value.
 */
export const stringMapSchema = (description: string) =>
  ({
    type: 'object',
    description: `${description} At most ${MAX_MAP_KEYS} keys of 1 to ${MAX_MAP_KEY_LENGTH} characters; values are strings of at most ${MAX_MAP_VALUE_LENGTH} characters.`,
    maxProperties: MAX_MAP_KEYS,
    additionalProperties: { type: 'string', maxLength: MAX_MAP_VALUE_LENGTH },
  }) as const;

export const wireString = { type: 'string' } as const;
export const wireInteger = { type: 'integer' } as const;
export const wireBoolean = { type: 'boolean' } as const;
export const wireStringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
