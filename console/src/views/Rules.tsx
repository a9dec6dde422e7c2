import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { Problem } from '../components/bits';
import { loadRuleOptions, type RuleOptions } from '../rule-options';
import type { SandboxRule } from '../types';

type MatchKind = 'suffix' | 'prefix' | 'number';

interface Row {
  kind: MatchKind;
  digits: string;
  outcome: string;
  latencyMs: string;
  status: string;
  error: string;
}

const toRow = (rule: SandboxRule): Row => {
  const kind = (['suffix', 'prefix', 'number'] as const).find((k) => rule.match[k] !== undefined) ?? 'suffix';
  return { kind, digits: rule.match[kind] ?? '', outcome: rule.outcome, latencyMs: rule.latencyMs?.toString() ?? '', status: rule.status ?? '', error: rule.error ?? '' };
};

const toRule = (row: Row): SandboxRule => {
  const rule: SandboxRule = { match: { [row.kind]: row.digits.trim() }, outcome: row.outcome };
  if (row.latencyMs.trim() !== '') rule.latencyMs = Number(row.latencyMs);
  if (row.status) rule.status = row.status;
  if (row.error) rule.error = row.error;
  return rule;
};

/** The account's sandbox outcome rules, checked in order before the built-in suffix table. */
export function Rules() {
  const [rows, setRows] = useState<Row[]>([]);
  const [options, setOptions] = useState<RuleOptions>({ outcomes: ['DELIVERED'], statuses: [], errors: [] });
  const [problem, setProblem] = useState<string>();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    api<{ rules: SandboxRule[] }>('/sandbox/1/rules').then((r) => setRows(r.rules.map(toRow)), (e: Error) => setProblem(e.message));
    loadRuleOptions().then(setOptions, () => undefined);
  }, []);

  const update = (index: number, change: Partial<Row>): void => {
    setSaved(false);
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));
  };
  const move = (index: number, by: number): void => {
    setSaved(false);
    setRows((current) => {
      const next = [...current];
      const [row] = next.splice(index, 1);
      next.splice(Math.max(0, Math.min(next.length, index + by)), 0, row!);
      return next;
    });
  };

  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    setProblem(undefined);
    try {
      const answer = await api<{ rules: SandboxRule[] }>('/sandbox/1/rules', { method: 'PUT', body: { rules: rows.map(toRule) } });
      setRows(answer.rules.map(toRow));
      setSaved(true);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <section class="view rules" aria-labelledby="rules-title">
      <div class="view-head">
        <h1 id="rules-title">Sandbox rules</h1>
      </div>
      <p class="muted">
        The first rule that matches a destination decides what the simulated network does with it; numbers no rule matches follow the built-in suffix table (9001 undeliverable,
        9002 expired, 9003 rejected, 9004 no report, 9021 not RCS-capable; calls: 9011 busy, 9012 no answer, 9013 unreachable, 9014 answering machine). Rules are kept by
        the server process in memory.
      </p>
      <form onSubmit={save}>
        <div class="table-wrap">
          <table class="rules-table">
            <thead>
              <tr>
                <th scope="col">Match</th>
                <th scope="col">Digits</th>
                <th scope="col">Outcome</th>
                <th scope="col">Latency (ms)</th>
                <th scope="col">Status</th>
                <th scope="col">Error</th>
                <th scope="col">
                  <span class="visually-hidden">Order</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                <tr key={index}>
                  <td>
                    <select aria-label={`Rule ${index + 1} match`} value={row.kind} onChange={(e) => update(index, { kind: e.currentTarget.value as MatchKind })}>
                      <option value="suffix">ends with</option>
                      <option value="prefix">starts with</option>
                      <option value="number">is exactly</option>
                    </select>
                  </td>
                  <td>
                    <input aria-label={`Rule ${index + 1} digits`} inputMode="numeric" required value={row.digits} onInput={(e) => update(index, { digits: e.currentTarget.value })} />
                  </td>
                  <td>
                    <Select label={`Rule ${index + 1} outcome`} value={row.outcome} options={options.outcomes} onChange={(outcome) => update(index, { outcome })} />
                  </td>
                  <td>
                    <input aria-label={`Rule ${index + 1} latency`} inputMode="numeric" value={row.latencyMs} onInput={(e) => update(index, { latencyMs: e.currentTarget.value })} />
                  </td>
                  <td>
                    <Select label={`Rule ${index + 1} status`} value={row.status} options={options.statuses} optional onChange={(status) => update(index, { status })} />
                  </td>
                  <td>
                    <Select label={`Rule ${index + 1} error`} value={row.error} options={options.errors} optional onChange={(error) => update(index, { error })} />
                  </td>
                  <td class="row-actions">
                    <button type="button" class="quiet" aria-label={`Move rule ${index + 1} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                      ↑
                    </button>
                    <button type="button" class="quiet" aria-label={`Move rule ${index + 1} down`} disabled={index === rows.length - 1} onClick={() => move(index, 1)}>
                      ↓
                    </button>
                    <button
                      type="button"
                      class="quiet"
                      aria-label={`Remove rule ${index + 1}`}
                      onClick={() => {
                        setSaved(false);
                        setRows((current) => current.filter((_, i) => i !== index));
                      }}
                    >
                      ✕
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Problem text={problem} />
        <div class="actions">
          <button
            type="button"
            class="quiet"
            onClick={() => setRows((current) => [...current, { kind: 'suffix', digits: '', outcome: options.outcomes[0] ?? 'DELIVERED', latencyMs: '', status: '', error: '' }])}
          >
            Add a rule
          </button>
          <button type="submit">Save rules</button>
          {saved && (
            <span role="status" class="muted">
              Saved.
            </span>
          )}
        </div>
      </form>
    </section>
  );
}

function Select({ label, value, options, optional = false, onChange }: { label: string; value: string; options: string[]; optional?: boolean; onChange: (v: string) => void }) {
  const all = value && !options.includes(value) ? [value, ...options] : options;
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {optional && <option value="">default</option>}
      {all.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  );
}
