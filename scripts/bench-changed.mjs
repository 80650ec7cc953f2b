// The `--changed` line of `npm run bench`: what `drift diff --changed` costs when one of 24
// providers changed, against `drift diff -p <that provider>` (a one-provider run), both through the
// built CLI in a git checkout. The synthetic providers are copies of the bundled examples, each with
// its own function folder, so a change can touch exactly one of them.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { median } from './bench-util.mjs';

const run = promisify(execFile);

/** `providers` copies of the bundled examples, the bundled scenarios, goldens written by drift update, committed on main; then one provider's code changed on a branch. */
async function changedProject(root, providers) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-changed-'));
  const examples = readdirSync(path.join(root, 'providers')).filter((name) => existsSync(path.join(root, 'providers', name, 'provider.yaml'))).sort();
  const skipCaches = (source) => path.basename(source) !== '__pycache__' && !source.endsWith('.pyc');
  const names = [];
  for (let i = 0; i < providers; i += 1) {
    const example = examples[i % examples.length];
    const name = `${example}-${String(i).padStart(2, '0')}`;
    cpSync(path.join(root, 'providers', example), path.join(dir, 'providers', name), { recursive: true, filter: skipCaches });
    const adapter = path.join(dir, 'providers', name, 'provider.yaml');
    writeFileSync(adapter, readFileSync(adapter, 'utf8').replace(/^name: .*$/m, `name: ${name}`));
    names.push(name);
  }
  for (const shared of ['ruff.toml', 'requirements.txt']) cpSync(path.join(root, 'providers', shared), path.join(dir, 'providers', shared));
  cpSync(path.join(root, 'scenarios'), path.join(dir, 'scenarios'), { recursive: true });
  writeFileSync(path.join(dir, 'drift.config.yaml'), 'goldens: goldens\n');
  // The adapters start ../../.venv/bin/python, relative to themselves.
  symlinkSync(path.join(root, '.venv'), path.join(dir, '.venv'), 'dir');
  writeFileSync(path.join(dir, '.gitignore'), '.venv\n__pycache__/\n*.pyc\n');
  const git = (...args) => run('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir });
  await drift(root, dir, ['update']);
  await git('init', '--quiet', '--initial-branch=main');
  await git('add', '--all');
  await git('commit', '--quiet', '-m', 'synthetic providers');
  await git('checkout', '--quiet', '-b', 'change');
  // A comment: it changes the provider's files, not its behaviour, style or outline.
  const changed = names[Math.floor(providers / 2)];
  const composer = path.join(dir, 'providers', changed, 'function', 'composer.py');
  const text = readFileSync(composer, 'utf8');
  const comment = /^( *# .*)$/m.exec(text);
  if (!comment) throw new Error(`bench: no comment to change in ${composer}`);
  writeFileSync(composer, text.replace(comment[0], `${comment[0]} (changed by the bench)`));
  return { dir, changed };
}

/**
 * CPU time of this process's finished children, in ms: the drift CLI, and through it the functions
 * and git it waited for. Steadier than wall time on a shared machine. Linux only (else 0).
 */
function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** Runs the built CLI; exit 1 (findings) is an answer, anything else stops the bench. */
async function drift(root, cwd, args) {
  const began = performance.now();
  const cpu = childrenCpu();
  const measured = (stdout) => ({ ms: performance.now() - began, cpu: childrenCpu() - cpu, stdout });
  try {
    const { stdout } = await run(process.execPath, [path.join(root, 'bin/drift.js'), ...args], { cwd, maxBuffer: 64 * 2 ** 20, env: { ...process.env, CI: '', NO_COLOR: '1' } });
    return measured(stdout);
  } catch (error) {
    if (error.code === 1) return measured(error.stdout);
    throw new Error(`bench: drift ${args.join(' ')} failed (${error.code}): ${error.stderr}`);
  }
}

/** Prints the `changed` line: medians of `reps` interleaved runs of each. */
export async function benchChanged(root, { providers = 24, reps = 5 } = {}) {
  const { dir, changed } = await changedProject(root, providers);
  try {
    const partial = ['diff', '--changed', '--format', 'json'];
    const single = ['diff', '-p', changed, '--format', 'json'];
    const first = JSON.parse((await drift(root, dir, partial)).stdout);
    if (first.changed?.run !== 'partial' || first.changed.rendered.join() !== changed) throw new Error(`bench: --changed rendered ${JSON.stringify(first.changed)}, not ${changed}`);
    await drift(root, dir, single); // both warm
    const changedRuns = [];
    const singleRuns = [];
    // Interleaved, so a slow spell of a shared machine lands on both.
    for (let i = 0; i < reps; i += 1) {
      changedRuns.push(await drift(root, dir, partial));
      singleRuns.push(await drift(root, dir, single));
    }
    const of = (runs, key) => median(runs.map((result) => result[key]));
    const list = (runs) => runs.map((result) => result.ms.toFixed(0)).join(', ');
    console.log(
      `changed  one of ${providers} providers changed (${changed}), end to end, median of ${reps}: --changed ${of(changedRuns, 'ms').toFixed(0)} ms (runs: ${list(changedRuns)}; CPU ${of(changedRuns, 'cpu').toFixed(0)} ms) ` +
        `vs -p ${changed} ${of(singleRuns, 'ms').toFixed(0)} ms (runs: ${list(singleRuns)}; CPU ${of(singleRuns, 'cpu').toFixed(0)} ms): ` +
        `${(of(changedRuns, 'ms') / of(singleRuns, 'ms')).toFixed(2)} × a one-provider run by wall, ${(of(changedRuns, 'cpu') / of(singleRuns, 'cpu')).toFixed(2)} × by CPU (goal ≤ 1.3)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
