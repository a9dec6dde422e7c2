import { MAX_JSON_DEPTH } from './json-body.js';

// NUL and unpaired surrogates are valid in JSON strings but not storable text (PostgreSQL refuses
// both), so they are refused at the door, on every store driver alike.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type UnstorableFinding = { kind: 'unstorable'; property: string } | { kind: 'too-deep' };

type Segment = string | number;

/**
 * The segments (innermost first) leading to the first string or key holding unstorable text, `[]`
 * when it is the value itself, 'too-deep' past the depth bound, or undefined. Paths are built only
 * for a finding, so a clean body (every accepted request) costs no string building.
 */
function find(value: unknown, depth: number): Segment[] | 'too-deep' | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? [] : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_JSON_DEPTH) return 'too-deep';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = find(value[i], depth + 1);
      if (found === undefined) continue;
      if (found !== 'too-deep') found.push(i);
      return found;
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (UNSTORABLE.test(key)) return [];
    const found = find((value as Record<string, unknown>)[key], depth + 1);
    if (found === undefined) continue;
    if (found !== 'too-deep') found.push(key);
    return found;
  }
  return undefined;
}

/** `['text', 0, 'messages']` → `messages[0].text`; an empty path is the body itself. */
function propertyPath(innermostFirst: Segment[]): string {
  let path = '';
  for (let i = innermostFirst.length - 1; i >= 0; i--) {
    const segment = innermostFirst[i]!;
    if (typeof segment === 'number') path += `[${segment}]`;
    else path += path === '' ? segment : `.${segment}`;
  }
  return path || 'body';
}

/** The first unstorable string (or key) of request data, in Infobip's property form, or why it was not walked. */
export function findUnstorableText(value: unknown): UnstorableFinding | undefined {
  const found = find(value, 0);
  if (found === undefined) return undefined;
  if (found === 'too-deep') return { kind: 'too-deep' };
  return { kind: 'unstorable', property: propertyPath(found) };
}
