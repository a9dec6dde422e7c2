import { readFile } from 'node:fs/promises';

/** What the simulated SMSC does with a submit to a destination. */
export interface OutcomeRule {
  prefix?: string;
  suffix?: string;
  /** Receipt stat word (DELIVRD, UNDELIV, EXPIRED, REJECTD, …). */
  stat?: string;
  /** Receipt err code. */
  err?: number;
  /** Receipt delay for this rule instead of the simulator's. */
  delayMs?: number;
  /** Answer the submit with this command_status instead of accepting it. */
  submitStatus?: number;
  /** Accept the submit and never send a receipt. */
  noReceipt?: boolean;
}

export interface Outcome {
  stat: string;
  err: number;
  delayMs: number | undefined;
  submitStatus: number;
  noReceipt: boolean;
}

/** Built in, like the sandbox network: by the destination's last four digits. */
const BUILT_IN: Record<string, OutcomeRule> = {
  '9001': { stat: 'UNDELIV', err: 1 },
  '9002': { stat: 'EXPIRED' },
  '9003': { stat: 'REJECTD' },
  '9004': { noReceipt: true },
  '9005': { submitStatus: 0x0b },
};

export function decideOutcome(rules: readonly OutcomeRule[], destination: string): Outcome {
  const rule =
    rules.find((r) => (r.prefix === undefined || destination.startsWith(r.prefix)) && (r.suffix === undefined || destination.endsWith(r.suffix))) ??
    BUILT_IN[destination.slice(-4)] ??
    {};
  return {
    stat: rule.stat ?? 'DELIVRD',
    err: rule.err ?? 0,
    delayMs: rule.delayMs,
    submitStatus: rule.submitStatus ?? 0,
    noReceipt: rule.noReceipt ?? false,
  };
}

const STATS = ['DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD', 'DELETED', 'UNKNOWN', 'ACCEPTD', 'ENROUTE', 'SKIPPED'];
const FIELDS = new Set(['prefix', 'suffix', 'stat', 'err', 'delayMs', 'submitStatus', 'noReceipt']);

/** Reads and checks a rules file: a JSON array of OutcomeRule. */
export async function loadOutcomeRules(file: string): Promise<OutcomeRule[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`rules file ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(json)) throw new Error(`rules file ${file}: must be a JSON array of rules`);
  const problems: string[] = [];
  json.forEach((rule: unknown, i) => {
    if (typeof rule !== 'object' || rule === null) return void problems.push(`[${i}]: must be an object`);
    const r = rule as Record<string, unknown>;
    for (const key of Object.keys(r)) if (!FIELDS.has(key)) problems.push(`[${i}].${key}: unknown field`);
    for (const key of ['prefix', 'suffix']) if (r[key] !== undefined && (typeof r[key] !== 'string' || !/^\d*$/.test(r[key] as string))) problems.push(`[${i}].${key}: digits`);
    if (r.stat !== undefined && !STATS.includes(String(r.stat))) problems.push(`[${i}].stat: one of ${STATS.join(', ')}`);
    for (const key of ['err', 'delayMs', 'submitStatus']) {
      if (r[key] !== undefined && (typeof r[key] !== 'number' || !Number.isInteger(r[key]) || (r[key] as number) < 0)) problems.push(`[${i}].${key}: a non-negative integer`);
    }
    if (r.noReceipt !== undefined && typeof r.noReceipt !== 'boolean') problems.push(`[${i}].noReceipt: true or false`);
  });
  if (problems.length > 0) throw new Error(`rules file ${file} is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return json as OutcomeRule[];
}
