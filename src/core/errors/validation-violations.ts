import type { Violation } from './api-problem.js';

/** The parts of an Ajv error this module reads. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** `/messages/0/destinations/0/to` → `messages[0].destinations[0].to`. */
export function toPropertyPath(instancePath: string, child?: string): string {
  const segments = instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) segments.push(child);
  let path = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else path += path === '' ? segment : `.${segment}`;
  }
  return path;
}

function describe(error: SchemaError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return 'must not be null';
    case 'type':
      return `must be ${String(p.type).replace(',', ' or ')}`;
    case 'enum':
      return `must be one of [${(p.allowedValues as unknown[]).join(', ')}]`;
    case 'maxLength':
      return `size must be between 0 and ${String(p.limit)}`;
    case 'minLength':
      return Number(p.limit) === 1 ? 'must not be blank' : `size must be at least ${String(p.limit)}`;
    case 'minItems':
      return Number(p.limit) === 1 ? 'must not be empty' : `must contain at least ${String(p.limit)} items`;
    case 'maxItems':
      return `must contain at most ${String(p.limit)} items`;
    case 'minimum':
      return `must be greater than or equal to ${String(p.limit)}`;
    case 'maximum':
      return `must be less than or equal to ${String(p.limit)}`;
    case 'additionalProperties':
      return `unknown property '${String(p.additionalProperty)}'`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** Maps schema-validation errors to violations, one per property, in request order. */
export function violationsFromSchemaErrors(errors: readonly SchemaError[], prefix = ''): Violation[] {
  const seen = new Set<string>();
  const out: Violation[] = [];
  for (const error of errors) {
    const child = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
    const property = prefix + toPropertyPath(error.instancePath, child);
    const text = describe(error);
    const key = `${property}\u0000${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ property: property || 'body', violation: text });
  }
  return out;
}
