import { toPropertyPath } from './errors/validation-violations.js';

// NUL and unpaired surrogates are valid in JSON strings but not storable text (PostgreSQL refuses
// both), so they are refused at the door, on every store driver alike.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The property path of the first string (or key) holding unstorable text, or undefined. */
export function findUnstorableText(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path || 'body' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (UNSTORABLE.test(key)) return path || 'body';
      const found = findUnstorableText(child, `${path}/${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export const unstorablePath = (value: unknown): string | undefined => {
  const found = findUnstorableText(value);
  return found === undefined || found === 'body' ? found : toPropertyPath(found);
};
