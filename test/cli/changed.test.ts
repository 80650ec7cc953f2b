/**
 * `drift diff --changed [REF]` through the built CLI, on copies of the project made git repositories
 * (a `main` with the bundled project, a `feature` branch on top): what a change renders, what the
 * report says about it, and the refs a checkout cannot resolve. Each diff narrows the scenarios so
 * the real functions render little.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { runDrift, type DriftRun } from '../helpers/drift.js';
import { flattened } from '../helpers/consequences.js';
import { bundledProviders, copyProject, hashGoldens, mutate, replaceExactly, tempDir } from '../helpers/project.js';

const SLOW = 180_000;
const PROVIDERS = bundledProviders();
const cleanups: Array<() => void> = [];
afterAll(() => cleanups.forEach((remove) => remove()));

interface ChangedJson {
  ref: string;
  base: string;
  run: string;
  rendered: string[];
  files: Array<{ file: string; kind: string; provider?: string }>;
  ignored: number;
}

interface Report {
  providers: string[];
  changed?: ChangedJson;
  findings: Array<{ id: string; type: string; provider?: string; values?: Record<string, unknown> }>;
  accepted: unknown[];
  summary: { clean: boolean };
}

/** git in `dir`, with an identity and no signing, whatever the machine's configuration says. */
async function git(dir: string, ...args: string[]): Promise<string> {
  const result = await execa('git', ['-c', 'user.name=drift test', '-c', 'user.email=drift@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir });
  return String(result.stdout);
}

/** A copy of the project committed on `main`, checked out on a new branch `feature`. */
async function repository(): Promise<string> {
  const copy = copyProject({ prefix: 'drift-changed-' });
  cleanups.push(copy.remove);
  // The venv link and the bytecode the functions write are no part of the project.
  writeFileSync(path.join(copy.dir, '.gitignore'), '.venv\n__pycache__/\n*.pyc\n');
  await git(copy.dir, 'init', '--quiet', '--initial-branch=main');
  await git(copy.dir, 'add', '--all');
  await git(copy.dir, 'commit', '--quiet', '-m', 'the bundled project');
  await git(copy.dir, 'checkout', '--quiet', '-b', 'feature');
  return copy.dir;
}

async function commitAll(dir: string, message: string): Promise<void> {
  await git(dir, 'add', '--all');
  await git(dir, 'commit', '--quiet', '-m', message);
}

async function diffJson(dir: string, args: string[]): Promise<DriftRun & { report: Report }> {
  const run = await runDrift(['diff', '--format', 'json', ...args], dir);
  expect(run.stderr).toBe('');
  // Each finding on its own: how they group into causes is pinned by test/cli/causes.test.ts.
  return { ...run, report: flattened(JSON.parse(run.stdout) as Parameters<typeof flattened>[0]) as unknown as Report };
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('drift diff --changed', () => {
  it(
    "one provider's function changed: only it renders, judged against the others' goldens exactly as -p does, and the report says why",
    async () => {
      const dir = await repository();
      const base = (await git(dir, 'rev-parse', 'HEAD')).trim();
      // Uncommitted: the working tree counts. The StorageClass Object may now be deleted.
      mutate(dir, 'eks', 'function/composer.py', (text) =>
        replaceExactly(text, '"managementPolicies": ["Observe", "Create", "Update", "LateInitialize"],', '"managementPolicies": ["Observe", "Create", "Update", "Delete"],'),
      );
      const index = sha(path.join(dir, '.git/index'));
      const { exitCode, report } = await diffJson(dir, ['--changed', '-s', 'two-pools']);
      expect(exitCode).toBe(1);
      expect(report.providers).toEqual(['eks']);
      expect(report.changed).toEqual({ ref: 'main', base, run: 'partial', rendered: ['eks'], files: [{ file: 'providers/eks/function/composer.py', kind: 'function', provider: 'eks' }], ignored: 0 });
      expect(report.findings.map((finding) => finding.id)).toEqual([
        'rule:in-cluster-no-delete:eks:storage-class-rwx',
        'div:cache-storage-class:management-policies:eks',
        'golden:eks/two-pools:resources.storage-class-rwx',
      ]);
      // The convention it diverges from is the other four's, read from their goldens.
      const divergence = report.findings.find((finding) => finding.type === 'divergence')!;
      expect(Object.keys(divergence.values!)).toEqual(PROVIDERS);
      expect(divergence.values!.gke).toEqual([['Observe', 'Create', 'Update', 'LateInitialize']]);

      const p = await diffJson(dir, ['-p', 'eks', '-s', 'two-pools']);
      expect({ ...report, changed: undefined }).toEqual({ ...p.report, changed: undefined });
      expect(p.exitCode).toBe(exitCode);

      const text = await runDrift(['diff', '--changed', '-s', 'two-pools'], dir);
      expect(text.stdout.split('\n')[0]).toBe(`changed since main (${base.slice(0, 12)}): rendered: eks (providers/eks/function/composer.py changed); others from goldens`);
      // Asking git what changed wrote nothing into the checkout, not even the index.
      expect(sha(path.join(dir, '.git/index'))).toBe(index);
    },
    SLOW,
  );

  it(
    'a scenario changed (committed on the branch): every provider renders',
    async () => {
      const dir = await repository();
      const scenario = path.join(dir, 'scenarios/never-ready.yaml');
      writeFileSync(scenario, readFileSync(scenario, 'utf8').replace(/^description: (.*)$/m, 'description: $1 (reworded)'));
      await commitAll(dir, 'reword a scenario');
      const { exitCode, report } = await diffJson(dir, ['--changed', '-s', 'never-ready']);
      expect(report.changed).toMatchObject({ run: 'full', rendered: PROVIDERS, files: [{ file: 'scenarios/never-ready.yaml', kind: 'scenario' }] });
      expect(report.providers).toEqual(PROVIDERS);
      expect(report.findings).toEqual([]);
      expect(exitCode).toBe(0);
      const text = await runDrift(['diff', '--changed', 'main', '-s', 'never-ready'], dir);
      expect(text.stdout.split('\n')[0]).toMatch(/^changed since main \([0-9a-f]{12}\): full run: scenarios\/never-ready\.yaml \(a scenario\) changed$/);
    },
    SLOW,
  );

  it(
    "an adapter changed, and an untracked file in another provider's folder: those two render",
    async () => {
      const dir = await repository();
      appendFileSync(path.join(dir, 'providers/gke/provider.yaml'), '# a comment changes no behaviour, but the adapter is what it is rendered from\n');
      await commitAll(dir, 'touch the gke adapter');
      writeFileSync(path.join(dir, 'providers/vultr/NOTES.md'), 'untracked\n');
      writeFileSync(path.join(dir, 'README.md'), 'nothing drift reads\n');
      const { exitCode, report } = await diffJson(dir, ['--changed', '-s', 'never-ready']);
      expect(report.changed).toMatchObject({
        run: 'partial',
        rendered: ['gke', 'vultr'],
        files: [
          { file: 'providers/gke/provider.yaml', kind: 'adapter', provider: 'gke' },
          { file: 'providers/vultr/NOTES.md', kind: 'function', provider: 'vultr' },
        ],
        ignored: 1,
      });
      expect(report.providers).toEqual(['gke', 'vultr']);
      expect(report.findings).toEqual([]);
      expect(exitCode).toBe(0);
    },
    SLOW,
  );

  it(
    'nothing drift reads changed: no provider renders, the goldens are judged as they are, exit 0, nothing written',
    async () => {
      const dir = await repository();
      writeFileSync(path.join(dir, 'README.md'), 'docs only\n');
      await commitAll(dir, 'docs');
      const goldens = hashGoldens(dir);
      const { exitCode, report } = await diffJson(dir, ['--changed']);
      expect(report.changed).toMatchObject({ run: 'none', rendered: [], files: [], ignored: 1 });
      expect(report.providers).toEqual([]);
      expect(report.findings).toEqual([]);
      expect(report.accepted).toEqual([]);
      expect(exitCode).toBe(0);
      const text = await runDrift(['diff', '--changed'], dir);
      expect(text.exitCode).toBe(0);
      expect(text.stdout.split('\n')[0]).toMatch(/: nothing drift reads changed; no provider rendered, every provider judged from its goldens; 1 other changed file drift reads nothing from$/);
      // As -p with an empty list would: with nothing rendered nothing can be blamed, and facets the
      // established providers alone decide are not judged again; the default branch's full run does that.
      expect(text.stdout).toMatch(/\n0 providers × 10 scenarios: no findings\n$/);
      expect(hashGoldens(dir)).toEqual(goldens);
    },
    SLOW,
  );

  it('a ref the checkout cannot resolve: exit 2, saying to fetch more history, before anything renders', async () => {
    const dir = await repository();
    const run = await runDrift(['diff', '--changed', 'origin/main'], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('drift: --changed origin/main: this checkout cannot resolve "origin/main"; fetch more history (`git fetch --deepen=50`');
    expect(run.stderr).toContain('`fetch-depth: 0` on actions/checkout');
  });

  it('a shallow clone: the base branch not fetched, or no merge base in the fetched history, is exit 2 naming the shallow clone', async () => {
    const dir = await repository();
    writeFileSync(path.join(dir, 'README.md'), 'on the branch\n');
    await commitAll(dir, 'feature work');
    // main moves on too, so the merge base lies below both tips.
    await git(dir, 'checkout', '--quiet', 'main');
    writeFileSync(path.join(dir, 'NOTES.md'), 'on main\n');
    await commitAll(dir, 'main work');
    const { dir: clones, remove } = tempDir('drift-shallow-');
    cleanups.push(remove);
    const single = path.join(clones, 'single');
    await git(clones, 'clone', '--quiet', '--depth=1', '--branch=feature', `file://${dir}`, single);
    const unfetched = await runDrift(['diff', '--changed', 'origin/main'], single);
    expect(unfetched.exitCode).toBe(2);
    expect(unfetched.stderr).toContain('this checkout cannot resolve "origin/main" (this checkout is a shallow clone); fetch more history');

    const every = path.join(clones, 'every');
    await git(clones, 'clone', '--quiet', '--depth=1', '--no-single-branch', '--branch=feature', `file://${dir}`, every);
    const cut = await runDrift(['diff', '--changed', 'origin/main'], every);
    expect(cut.exitCode).toBe(2);
    expect(cut.stderr).toContain('drift: --changed origin/main: HEAD and origin/main have no common ancestor in this checkout (this checkout is a shallow clone); fetch more history');
  });

  it('with no origin/HEAD, main or master to default to: exit 2 asking for a ref', async () => {
    const dir = await repository();
    await git(dir, 'branch', '--move', 'main', 'trunk');
    const run = await runDrift(['diff', '--changed'], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('drift: --changed: this checkout has none of origin/HEAD, main, master to compare with; name the ref (`drift diff --changed origin/main`)');
    // Named, it works: the merge base of HEAD with trunk, nothing changed since.
    const named = await diffJson(dir, ['--changed', 'trunk']);
    expect(named.report.changed).toMatchObject({ ref: 'trunk', run: 'none' });
  }, SLOW);

  it('outside a git checkout, before the first commit, and together with --provider: exit 2, saying what to do', async () => {
    const copy = copyProject({ prefix: 'drift-nogit-' });
    cleanups.push(copy.remove);
    const outside = await runDrift(['diff', '--changed'], copy.dir);
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toMatch(/^drift: --changed: \S+ is not inside a git checkout \(.*\); run drift diff without --changed, or in a clone of the repository\n$/);

    await git(copy.dir, 'init', '--quiet', '--initial-branch=main');
    const unborn = await runDrift(['diff', '--changed'], copy.dir);
    expect(unborn.exitCode).toBe(2);
    expect(unborn.stderr).toMatch(/^drift: --changed: HEAD has no commit in \S+ yet; commit first, or run drift diff without --changed\n$/);

    // --changed picks the providers itself: a -p beside it would be ignored or contradict it.
    const both = await runDrift(['diff', '--changed', '-p', 'eks'], copy.dir);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain("error: option '--changed [REF]' cannot be used with option '-p, --provider <name>'");
  });
});
