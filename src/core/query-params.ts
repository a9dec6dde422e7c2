import type { FastifyRequest } from 'fastify';
import { violation } from './errors/api-problem.js';
import { parseInfobipTime } from './infobip-time.js';

/** Infobip's documented limit for one array query parameter (repeated or comma-separated). */
export const MAX_ARRAY_PARAM_LENGTH = 2048;

/**
 * An array query parameter as the SDKs send it (`?bulkId=a&bulkId=b`) or as Infobip documents it
 * (`?bulkId=a,b`), or both mixed. Blank items are dropped; undefined when nothing remains, so an
 * empty `?bulkId=` does not filter everything out.
 */
export function arrayParam(
  name: string,
  raw: string | readonly string[] | undefined,
  maxLength = MAX_ARRAY_PARAM_LENGTH,
): string[] | undefined {
  if (raw === undefined) return undefined;
  const values = typeof raw === 'string' ? [raw] : raw;
  const items: string[] = [];
  for (const value of values) {
    if (value.length > maxLength) throw violation(name, `size must be between 0 and ${maxLength}`);
    for (const part of value.split(',')) {
      const item = part.trim();
      if (item !== '' && !items.includes(item)) items.push(item);
    }
  }
  return items.length > 0 ? items : undefined;
}

/*
 * A `+` in an unencoded query string decodes to a space, so `…30.000+0000` can arrive as
 * `…30.000 0000`. Only a space after a complete time and before a 2- or 4-digit offset is read
 * as a lost plus sign.
 */
const LOST_PLUS = /^(.*[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?) (\d{2}(?::?\d{2})?)$/i;

/** Epoch ms of a timestamp query parameter, in every form parseInfobipTime accepts; 400 naming it otherwise. */
export function timeParam(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  const direct = parseInfobipTime(text);
  if (direct !== undefined) return direct;
  const repaired = LOST_PLUS.exec(text);
  const parsed = repaired ? parseInfobipTime(`${repaired[1]}+${repaired[2]}`) : undefined;
  if (parsed === undefined) throw violation(name, "must be a date-time in the format yyyy-MM-dd'T'HH:mm:ss.SSSZ");
  return parsed;
}

/** Query-string schema of an array parameter; the validator turns a single value into a one-item array. */
export function arrayParamSchema(description: string): Record<string, unknown> {
  return {
    type: 'array',
    // Length is checked by arrayParam so the violation names the parameter, not one item of it.
    items: { type: 'string' },
    description: `${description} Repeat the parameter or separate values with commas; at most ${MAX_ARRAY_PARAM_LENGTH} characters per parameter.`,
  };
}

/** Query-string schema of `limit`: an integer from 1 to `maximum`, `fallback` when absent. */
export function limitParamSchema(fallback: number, maximum: number, description: string): Record<string, unknown> {
  return { type: 'integer', minimum: 1, maximum, default: fallback, description };
}

/**
 * Route hook (preValidation): an empty query value (`?limit=`) counts as not given, as Infobip's
 * Spring-based API treats it, so clients that send every parameter get defaults instead of a 400.
 */
export async function dropEmptyQueryValues(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query) return;
  for (const [name, value] of Object.entries(query)) {
    if (value === '') delete query[name];
    else if (Array.isArray(value)) {
      const kept = value.filter((item) => item !== '');
      if (kept.length === 0) delete query[name];
      else if (kept.length !== value.length) query[name] = kept;
    }
  }
}
