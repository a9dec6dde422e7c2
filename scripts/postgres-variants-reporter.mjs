// A node:test reporter that counts the PostgreSQL variants of the suite: tests whose own name or a
// suite around them names PostgreSQL (the store drivers' `postgres` suites, `postgres: …` tests),
// and every test of the pass that runs the HTTP suites on PostgreSQL. It writes one JSON summary,
// which scripts/run-tests.mjs prints, so a run says how many ran and which were skipped, by name.
import path from 'node:path';

const POSTGRES = /postgres/i;

export default async function* postgresVariants(source) {
  const wholePass = process.env.SWITCHBOARD_TEST_STORE === 'postgres';
  const summary = { passed: 0, failed: 0, skipped: [] };
  const stack = [];
  for await (const event of source) {
    const { type, data } = event;
    if (type === 'test:start') {
      stack[data.nesting] = data.name;
      stack.length = data.nesting + 1;
      continue;
    }
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    const trail = [...stack.slice(0, data.nesting), data.name];
    if (!wholePass && !trail.some((name) => POSTGRES.test(name))) continue;
    const isSuite = data.details?.type === 'suite';
    if (data.skip !== undefined) {
      const file = data.file ? path.relative(process.cwd(), data.file) : '?';
      summary.skipped.push({ name: `${file}: ${trail.join(' › ')}`, reason: data.skip === true ? '' : String(data.skip) });
    } else if (!isSuite) {
      if (type === 'test:pass') summary.passed++;
      else summary.failed++;
    }
  }
  yield JSON.stringify(summary);
}
