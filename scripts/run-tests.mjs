#!/usr/bin/env node
// Runs the compiled test suite with node's test runner. With TEST_DATABASE_URL set, the store
// contract suite covers PostgreSQL in the first pass, and a second pass runs every HTTP suite with
// its servers on PostgreSQL.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve('dist/test');
const only = process.argv.slice(2);

function testFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...testFiles(full));
    else if (name.endsWith('.test.js')) out.push(full);
  }
  return out;
}

const all = testFiles(root).filter((f) => only.length === 0 || only.some((o) => f.includes(o)));

function run(label, files, env) {
  if (files.length === 0) return 0;
  process.stdout.write(`\n# ${label}: ${files.length} test files\n`);
  const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

let status = run('SQLite (and store contract on PostgreSQL when TEST_DATABASE_URL is set)', all, {});
if (process.env.TEST_DATABASE_URL) {
  const httpSuites = all.filter((f) => !f.includes(`${path.sep}store${path.sep}`));
  status = run('HTTP suites on PostgreSQL', httpSuites, { SWITCHBOARD_TEST_STORE: 'postgres' }) || status;
}
process.exit(status);
