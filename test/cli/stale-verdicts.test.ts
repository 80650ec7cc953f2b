/**
 * Changes the cache keys must see (issue "one program", measured point 9): after each one, a cached
 * `drift diff` says what the same run with every cache off says, and `drift update` writes the new
 * goldens. The gke copy reads its storage class name from a module `driftprobe` that each case puts
 * somewhere else: a virtual environment's site-packages, one of two environments on PATH, a
 * symlinked file, a symlinked package folder. Each new value has the old one's length, so no size
 * alone tells them apart.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { driftTools, runDrift } from '../helpers/drift.js';
import { copyProject, linkedVenv, mutate, replaceExactly } from '../helpers/project.js';

const copy = copyProject({ prefix: 'drift-stale-' });
afterAll(() => copy.remove());

const gke = path.join(copy.dir, 'providers/gke');

let clock = Math.floor(Date.now() / 1000);
/**
 * Writes the probe module with a time of its own: Python trusts a cached .pyc whose source has the
 * same size and the same whole-second modification time, which same-length values written within a
 * second would have.
 */
function writeProbe(file: string, storageClass: string): void {
  writeFileSync(file, `STORAGE_CLASS = "${storageClass}"\n`);
  clock += 10;
  utimesSync(file, clock, clock);
}
const cacheDir = path.join(copy.dir, '.drift-cache');

/** An environment of the copy's own (linkedVenv) whose site-packages holds `driftprobe.py`. */
function venv(name: string, storageClass: string): { bin: string; probe: string } {
  const { bin, site } = linkedVenv(path.join(copy.dir, name));
  const probe = path.join(site, 'driftprobe.py');
  writeProbe(probe, storageClass);
  return { bin, probe };
}

const envA = venv('env-a', 'modelplane-rwx');
const envB = venv('env-b', 'modelplane-rwb');
mutate(copy.dir, 'gke', 'function/composer.py', (text) =>
  replaceExactly(replaceExactly(text, 'STORAGE_CLASS = "modelplane-rwx"\n', ''), 'run_function_pb2 as fnv1\n', 'run_function_pb2 as fnv1\nfrom driftprobe import STORAGE_CLASS\n'),
);
mutate(copy.dir, 'gke', 'provider.yaml', (text) => replaceExactly(text, 'command: [../../.venv/bin/python,', 'command: [python,'));

let PATH = `${envA.bin}${path.delimiter}${process.env.PATH ?? ''}`;
const env = () => ({ PATH, DRIFT_CACHE_DIR: cacheDir });
const ARGS = ['-p', 'gke', '-s', 'converge'];

/** The cached and the uncached verdict of the same run, as JSON reports, and the golden findings of it. */
async function verdicts(): Promise<{ cached: string; live: string; goldens: string[] }> {
  const cached = await runDrift(['diff', ...ARGS, '--format', 'json'], copy.dir, env());
  const live = await runDrift(['--no-cache', 'diff', ...ARGS, '--format', 'json'], copy.dir, env());
  expect(cached.exitCode, cached.stderr).toBe(live.exitCode);
  const findings = (JSON.parse(cached.stdout) as { findings: { id: string; type: string }[] }).findings;
  return { cached: cached.stdout, live: live.stdout, goldens: findings.filter((finding) => finding.type === 'golden').map((finding) => finding.id) };
}

const storageClassOf = () => /storageClassName: (\S+?)[,}]/.exec(readFileSync(path.join(copy.dir, 'goldens/gke/converge.yaml'), 'utf8'))?.[1];

/** The change is seen: the cached verdict is the live one and names the golden; `drift update` then writes `expected` into it. */
async function assertSeen(expected: string): Promise<void> {
  const { cached, live, goldens } = await verdicts();
  expect(cached).toBe(live);
  expect(goldens).toEqual(['golden:gke/converge:resources.storage-class-rwx', 'golden:gke/converge:status']);
  expect(cached).toContain(expected);
  const update = await runDrift(['update', ...ARGS], copy.dir, env());
  expect(update.exitCode, update.all).toBe(0);
  expect(storageClassOf()).toBe(expected);
  const after = await verdicts();
  expect(after.cached).toBe(after.live);
  expect(after.goldens).toEqual([]);
}

describe('stale verdicts: a cached run sees what a run without caches sees', () => {
  it('starts from a clean, cached baseline', async () => {
    // Every scenario: the outline golden is written only by a provider's whole update.
    const update = await runDrift(['update', '-p', 'gke'], copy.dir, env());
    expect(update.exitCode, update.all).toBe(0);
    const { cached, live, goldens } = await verdicts();
    expect(goldens).toEqual([]);
    expect(cached).toBe(live);
    expect(storageClassOf()).toBe('modelplane-rwx');
  });

  it('a file in site-packages edited in place, same size (a reinstall at the same version)', async () => {
    writeProbe(envA.probe, 'modelplane-rwa');
    await assertSeen('modelplane-rwa');
  });

  it('`command: [python, …]` found on PATH, PATH switched to another environment', async () => {
    PATH = `${envB.bin}${path.delimiter}${process.env.PATH ?? ''}`;
    await assertSeen('modelplane-rwb');
  });

  it('a symlink in the function folder retargeted', async () => {
    const targets = path.join(copy.dir, 'elsewhere');
    mkdirSync(targets);
    writeProbe(path.join(targets, 'one.py'), 'modelplane-rw1');
    writeProbe(path.join(targets, 'two.py'), 'modelplane-rw2');
    const link = path.join(gke, 'driftprobe.py');
    symlinkSync(path.join(targets, 'one.py'), link);
    await assertSeen('modelplane-rw1');
    unlinkSync(link);
    symlinkSync(path.join(targets, 'two.py'), link);
    await assertSeen('modelplane-rw2');
    unlinkSync(link);
  });

  it('a module edited behind a symlinked folder', async () => {
    const pkg = path.join(copy.dir, 'shared-probe');
    mkdirSync(pkg);
    writeProbe(path.join(pkg, '__init__.py'), 'modelplane-rw3');
    symlinkSync(pkg, path.join(gke, 'driftprobe'), 'dir');
    await assertSeen('modelplane-rw3');
    writeProbe(path.join(pkg, '__init__.py'), 'modelplane-rw4');
    await assertSeen('modelplane-rw4');
    rmSync(path.join(gke, 'driftprobe'));
  });

  it('drift mcp sees an environment changed between two calls of one session', async () => {
    const tools = await driftTools(copy.dir, env());
    const first = JSON.stringify(await tools.diff({ provider: 'gke', scenario: ['converge'] }));
    expect(first).toContain('modelplane-rwb');
    writeProbe(envB.probe, 'modelplane-rwc');
    const second = JSON.stringify(await tools.diff({ provider: 'gke', scenario: ['converge'] }));
    expect(second).toContain('modelplane-rwc');
  });
});
