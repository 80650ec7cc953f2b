#!/usr/bin/env node
/**
 * The suite's tests of the bundled set, run on a project with a sixth provider (issue 37): a copy of
 * this checkout (its tracked files, node_modules and .venv linked), a renamed copy of one bundled
 * provider added (`--from gke`, named `sixth`), its goldens written with `drift update -p sixth`, and
 * what the full run then reports accepted as a newcomer's loop would (one `drift accept` of every
 * acceptable id it prints). Then vitest runs, in the copy, the tests that speak of the whole set
 * (their names below); they read it from providers/ (test/helpers/project.ts bundledProviders), so
 * they must pass as they do on the bundled five.
 *
 * Not run: the tests whose expected findings are the bundled five's own conventions (the mutation
 * seeds' tables, the lock and style seeds): a sixth provider moves votes, and with them which finding
 * a seed makes (a split of 2-3 becomes a divergence of 2-4), which is what the newcomer loop's tipped
 * findings are for, not a test that assumes five.
 *
 *   node scripts/test-sixth-provider.mjs [--from PROVIDER] [--keep]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const from = args.includes('--from') ? args[args.indexOf('--from') + 1] : 'gke';
const keep = args.includes('--keep');
const NAME = 'sixth';

/** Each file with the tests in it that speak of the whole set (a vitest -t pattern). */
const SET_TESTS = [
  ['test/cli/render-cli.test.ts', 'lists the bundled providers|rejects an unknown provider'],
  ['test/cli/report.test.ts', 'renders from the JSON report'],
  ['test/cli/changed.test.ts', 'one provider.s function changed|a scenario changed'],
  ['test/cli/explain.test.ts', 'gives the MCP explain tool'],
  ['test/cli/newcomer.test.ts', 'with its goldens removed'],
  ['test/cli/style.test.ts', 'reports no stylistic finding, a clean source row'],
  ['test/cli/mutations.test.ts', 'the unmodified project'],
  ['test/cli/new-provider.test.ts', '.'],
  ['test/unit/canonical-outline.test.ts', '.'],
  ['test/integration/render.test.ts', '.'],
];

// drift refuses to write under CI, and CI makes stale entries fail: the copy is a developer's tree.
const { CI: _ci, ...ENV } = process.env;
const run = (cwd, command, argv, options = {}) => execFileSync(command, argv, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });

const dir = mkdtempSync(path.join(tmpdir(), 'drift-sixth-'));
let status = 1;
try {
  for (const file of run(REPO, 'git', ['ls-files', '-z']).split('\0').filter(Boolean)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    try {
      cpSync(path.join(REPO, file), path.join(dir, file));
    } catch {
      // A file deleted in the work tree and not yet committed.
    }
  }
  for (const link of ['node_modules', '.venv']) symlinkSync(path.join(REPO, link), path.join(dir, link), 'dir');
  cpSync(path.join(REPO, 'dist'), path.join(dir, 'dist'), { recursive: true, preserveTimestamps: true });

  cpSync(path.join(dir, 'providers', from), path.join(dir, 'providers', NAME), { recursive: true, filter: (source) => path.basename(source) !== '__pycache__' });
  const adapter = path.join(dir, 'providers', NAME, 'provider.yaml');
  const text = readFileSync(adapter, 'utf8');
  if (!text.includes(`\nname: ${from}\n`)) throw new Error(`${adapter}: no "name: ${from}" line to rename`);
  writeFileSync(adapter, text.replace(`\nname: ${from}\n`, `\nname: ${NAME}\n`));

  const drift = (...argv) => spawnSync(process.execPath, [path.join(dir, 'bin/drift.js'), ...argv], { cwd: dir, encoding: 'utf8', env: ENV });
  const update = drift('update', '-p', NAME);
  if (update.status !== 0) throw new Error(`drift update -p ${NAME} exited ${update.status}:\n${update.stdout}${update.stderr}`);
  const report = JSON.parse(drift('diff', '--format', 'json').stdout);
  const acceptable = report.findings.filter((finding) => /^(div|split|rule|style|locked|cause):/.test(finding.id)).map((finding) => finding.id);
  if (acceptable.length) {
    const accept = drift('accept', ...acceptable, '--reason', `${NAME} is a renamed copy of ${from}: it takes ${from}'s way`);
    if (accept.status !== 0) throw new Error(`drift accept exited ${accept.status}:\n${accept.stdout}${accept.stderr}`);
  }
  const clean = drift('diff');
  console.log(`sixth provider ${NAME} (a copy of ${from}): ${acceptable.length} accepted; drift diff exits ${clean.status}: ${clean.stdout.trim().split('\n').at(-1)}`);
  if (clean.status !== 0) throw new Error(`the six-provider project is not clean:\n${clean.stdout}${clean.stderr}`);
  run(dir, 'git', ['init', '-q']);
  run(dir, 'git', ['add', '-A']);
  run(dir, 'git', ['-c', 'user.name=drift', '-c', 'user.email=drift@example.invalid', 'commit', '-qm', 'six providers']);

  status = 0;
  for (const [file, names] of SET_TESTS) {
    const vitest = spawnSync(process.execPath, [path.join(dir, 'node_modules/vitest/vitest.mjs'), 'run', file, '-t', names], { cwd: dir, stdio: 'inherit', env: ENV });
    console.log(`${vitest.status === 0 ? 'pass' : 'FAIL'}  ${file} -t '${names}'`);
    if (vitest.status !== 0) status = 1;
  }
} catch (error) {
  console.error(String(error?.message ?? error));
  status = 2;
} finally {
  if (keep) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
