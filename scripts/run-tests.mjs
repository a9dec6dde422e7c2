#!/usr/bin/env node
// Runs the compiled test suite with node's test runner. With TEST_DATABASE_URL set, the store
// contract suite covers PostgreSQL in the first pass, and a second pass runs every suite that
// starts a server or opens a store (the HTTP suites) with its servers on PostgreSQL. Each pass reports its PostgreSQL variants (scripts/postgres-variants-
// reporter.mjs): how many ran, and which were skipped and why. With SWITCHBOARD_TEST_REQUIRE_POSTGRES=1
// (CI), a run where PostgreSQL variants did not run fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve('dist/test');
const only = process.argv.slice(2);
const reporter = path.resolve('scripts/postgres-variants-reporter.mjs');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'switchboard-test-run-'));
const requirePostgres = process.env.SWITCHBOARD_TEST_REQUIRE_POSTGRES === '1';
/** Test files run side by side: most of their time is spent waiting on servers, sockets and the database. */
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2);

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

/** Test helpers that start servers or open stores: a test file that reaches none of them has nothing to run on PostgreSQL. */
const STORE_HELPERS = [path.join(root, 'helpers', 'server.js'), path.join(root, 'helpers', 'child-server.js'), path.join(root, 'helpers', 'stores.js')];

/** Whether a compiled test file imports, directly or through other test modules, one of the store helpers. */
function reachesStore(file, seen = new Set()) {
  if (STORE_HELPERS.includes(file)) return true;
  if (seen.has(file) || !file.startsWith(root)) return false;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const [, specifier] of source.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
    if (reachesStore(path.resolve(path.dirname(file), specifier), seen)) return true;
  }
  return false;
}
const passes = [];

function run(label, files, env) {
  if (files.length === 0) return 0;
  process.stdout.write(`\n# ${label}: ${files.length} test files\n`);
  const summaryFile = path.join(scratch, `pass-${passes.length}.json`);
  const result = spawnSync(
    process.execPath,
    ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${reporter}`, `--test-reporter-destination=${summaryFile}`, ...files],
    { stdio: 'inherit', env: { ...process.env, ...env } },
  );
  let summary = { passed: 0, failed: 0, skipped: [] };
  try {
    summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
  } catch {
    // The run died before its reporter finished; its exit status says so.
  }
  passes.push({ label, summary });
  return result.status ?? 1;
}

let status = run('SQLite (and store contract on PostgreSQL when TEST_DATABASE_URL is set)', all, {});
const httpSuites = all.filter((f) => !f.includes(`${path.sep}store${path.sep}`) && reachesStore(f));
if (process.env.TEST_DATABASE_URL) {
  status = run('HTTP suites on PostgreSQL', httpSuites, { SWITCHBOARD_TEST_STORE: 'postgres' }) || status;
}
rmSync(scratch, { recursive: true, force: true });

const lines = ['', '# PostgreSQL variants'];
let ran = 0;
for (const { label, summary } of passes) {
  ran += summary.passed + summary.failed;
  lines.push(`# ${label}: ${summary.passed + summary.failed} ran (${summary.passed} passed, ${summary.failed} failed), ${summary.skipped.length} skipped`);
  for (const skipped of summary.skipped) lines.push(`#   skipped: ${skipped.name}${skipped.reason ? ` (${skipped.reason})` : ''}`);
}
if (!process.env.TEST_DATABASE_URL && httpSuites.length > 0) {
  lines.push(`# HTTP suites on PostgreSQL: not run, ${httpSuites.length} test files skipped (TEST_DATABASE_URL is not set)`);
}
process.stdout.write(`${lines.join('\n')}\n`);
if (requirePostgres && (!process.env.TEST_DATABASE_URL || ran === 0)) {
  process.stdout.write('# FAILED: PostgreSQL variants are required here (SWITCHBOARD_TEST_REQUIRE_POSTGRES=1) and none ran\n');
  status = status || 1;
}
process.exit(status);
