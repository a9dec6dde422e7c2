import { readFile } from 'node:fs/promises';
import { ConfigError } from '../../config-error.js';
import { ERROR, STATUS, isFinalGroup, type ErrorName, type StatusName } from '../../core/pipeline/statuses.js';
import { normalizeNumber } from '../../core/phone-number.js';
import { OUTCOME_BEHAVIOUR, SANDBOX_OUTCOMES, isSandboxOutcome, type SandboxOutcomeName } from './outcomes.js';

/**
 * Extra sandbox outcome rules, checked before the built-in suffix table. A rule matches when every
 * field of `match` it sets matches the destination (bare digits, a leading `+` ignored); the first
 * matching rule wins. Rules come from a JSON file (`SWITCHBOARD_SANDBOX_RULES`: an array of rules or
 * `{"rules": [...]}`) and per account through `PUT /sandbox/1/rules`; account rules are checked
 * before file rules.
 */
export interface SandboxRule {
  match: { suffix?: string; prefix?: string; number?: string };
  outcome: SandboxOutcomeName;
  /** Receipt latency for matching messages instead of the network's default. */
  latencyMs?: number;
  /** A status name from the status table, replacing the outcome's default (must be final). */
  status?: StatusName;
  /** An error name from the error table, replacing the outcome's default. */
  error?: ErrorName;
}

export const MAX_RULE_LATENCY_MS = 3_600_000;
const DIGITS = /^\+?\d{1,20}$/;

/** One thing wrong with one rule; `path` reads like `rules[2].match.suffix`. */
export interface RuleProblem {
  path: string;
  problem: string;
}

export class SandboxRulesError extends ConfigError {}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function checkRule(value: unknown, path: string, problems: RuleProblem[]): SandboxRule | undefined {
  const before = problems.length;
  const problem = (where: string, text: string): void => void problems.push({ path: `${path}${where}`, problem: text });
  if (!isObject(value)) {
    problem('', 'must be an object');
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (!['match', 'outcome', 'latencyMs', 'status', 'error'].includes(key)) problem(`.${key}`, 'unknown property');
  }
  const match: SandboxRule['match'] = {};
  if (!isObject(value.match)) problem('.match', 'must be an object with suffix, prefix or number');
  else {
    for (const [key, field] of Object.entries(value.match)) {
      if (key !== 'suffix' && key !== 'prefix' && key !== 'number') problem(`.match.${key}`, 'unknown property');
      else if (typeof field !== 'string' || !DIGITS.test(field)) problem(`.match.${key}`, 'must be a string of 1 to 20 digits');
      else match[key] = normalizeNumber(field);
    }
    if (Object.keys(match).length === 0 && problems.length === before) problem('.match', 'must set suffix, prefix or number');
  }
  const outcome = value.outcome;
  if (typeof outcome !== 'string' || !isSandboxOutcome(outcome)) {
    problem('.outcome', `must be one of [${SANDBOX_OUTCOMES.join(', ')}]`);
  }
  const latency = value.latencyMs;
  if (latency !== undefined && (!Number.isInteger(latency) || (latency as number) < 0 || (latency as number) > MAX_RULE_LATENCY_MS)) {
    problem('.latencyMs', `must be an integer between 0 and ${MAX_RULE_LATENCY_MS}`);
  }
  const status = value.status;
  if (status !== undefined) {
    if (typeof status !== 'string' || !(status in STATUS)) problem('.status', 'must be a status name, e.g. UNDELIVERABLE_NOT_DELIVERED');
    else if (!isFinalGroup(STATUS[status as StatusName].groupId)) problem('.status', 'must be a final status (not PENDING)');
    else if (typeof outcome === 'string' && isSandboxOutcome(outcome) && OUTCOME_BEHAVIOUR[outcome] !== 'receipt' && outcome !== 'REFUSED') {
      problem('.status', `is not used by outcome ${outcome}`);
    }
  }
  const error = value.error;
  if (error !== undefined && (typeof error !== 'string' || !(error in ERROR))) {
    problem('.error', 'must be an error name, e.g. EC_ABSENT_SUBSCRIBER');
  }
  if (problems.length > before) return undefined;
  const rule: SandboxRule = { match, outcome: outcome as SandboxOutcomeName };
  if (latency !== undefined) rule.latencyMs = latency as number;
  if (status !== undefined) rule.status = status as StatusName;
  if (error !== undefined) rule.error = error as ErrorName;
  return rule;
}

/** Validates parsed JSON: an array of rules, or `{ rules: [...] }`. */
export function parseSandboxRules(value: unknown, path = 'rules'): { rules: SandboxRule[] } | { problems: RuleProblem[] } {
  const list = isObject(value) && 'rules' in value ? value.rules : value;
  if (!Array.isArray(list)) return { problems: [{ path, problem: 'must be an array of rules' }] };
  const problems: RuleProblem[] = [];
  const rules: SandboxRule[] = [];
  list.forEach((entry, index) => {
    const rule = checkRule(entry, `${path}[${index}]`, problems);
    if (rule) rules.push(rule);
  });
  return problems.length > 0 ? { problems } : { rules };
}

/** Reads and validates a rules file; throws SandboxRulesError naming the file and each bad entry. */
export async function loadSandboxRules(file: string): Promise<SandboxRule[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SandboxRulesError(`sandbox rules file ${file} cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SandboxRulesError(`sandbox rules file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = parseSandboxRules(json);
  if ('problems' in parsed) {
    const lines = parsed.problems.map((p) => `  ${p.path}: ${p.problem}`);
    throw new SandboxRulesError(`sandbox rules file ${file} is invalid:\n${lines.join('\n')}`);
  }
  return parsed.rules;
}

export function ruleMatches(rule: SandboxRule, destination: string): boolean {
  const number = normalizeNumber(destination);
  const { suffix, prefix, number: exact } = rule.match;
  return (
    (suffix === undefined || number.endsWith(suffix)) &&
    (prefix === undefined || number.startsWith(prefix)) &&
    (exact === undefined || number === exact)
  );
}

/** The first rule matching the destination, searching the lists in order. */
export function findRule(lists: ReadonlyArray<readonly SandboxRule[]>, destination: string): SandboxRule | undefined {
  for (const rules of lists) {
    for (const rule of rules) if (ruleMatches(rule, destination)) return rule;
  }
  return undefined;
}
