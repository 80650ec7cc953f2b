/**
 * drift's life as a process, the built binary as a user runs it. Whatever ends drift, no function
 * outlives it: a hard SIGKILL (no handler of drift's runs) is left to each function's watchdog,
 * SIGHUP to drift's own handler. And the command line itself: --version, conflicting options, plurals.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Result } from 'execa';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { runDrift, startDrift } from '../helpers/drift.js';
import { BROKEN, brokenAdapter, REPO, tempProject, writeFiles } from '../helpers/project.js';
import { listProcesses, processesIn, waitFor } from '../helpers/processes.js';

const cleanups: Array<() => void> = [];
afterAll(() => cleanups.forEach((remove) => remove()));

const HANG = path.join(BROKEN, 'hang');
const PYTHON = path.join(REPO, '.venv/bin/python');

/**
 * A project whose one provider hangs on every call, started through a shell that also leaves a
 * grandchild ignoring SIGTERM in the function's process group, as a wrapper (uv run, a script) may.
 */
function hangingProject(): string {
  const project = tempProject({ providers: path.join('providers', '*.yaml'), scenarios: path.join(REPO, 'scenarios/converge.yaml'), timeouts: { startMs: 120_000, callMs: 120_000 } });
  cleanups.push(project.remove);
  const script = `(trap '' TERM; exec sleep 777 </dev/null >/dev/null 2>&1) & exec "$0" main.py --insecure --address "$1"`;
  const adapter = parseDocument(readFileSync(brokenAdapter('hang'), 'utf8'));
  adapter.setIn(['function', 'command'], ['sh', '-c', script, PYTHON, '{address}']);
  adapter.setIn(['function', 'cwd'], HANG);
  writeFiles(project.dir, { 'providers/hang.yaml': adapter.toString() });
  return project.configFile;
}

/** Starts `drift render` against the hanging provider and waits until drift is stuck on its call. */
async function stuckDrift(tag: string): Promise<{ child: ReturnType<typeof startDrift>; socketFolder: string }> {
  const child = startDrift(['--config', hangingProject(), 'render', '-p', 'hang', '-s', 'converge'], REPO, { env: { DRIFT_TEST_TAG: tag } });
  let exited: Result<{ reject: false }> | undefined;
  void child.then((result) => (exited = result));
  await waitFor(() => exited !== undefined || processesIn(HANG, tag).length === 2, 30_000, 'the hang function and its grandchild to start');
  if (exited) throw new Error(`drift exited (${exited.exitCode}) before its function hung:\n${exited.stderr}`);
  const python = processesIn(HANG, tag).find((p) => p.args.includes('--address unix:'))!;
  const socketFolder = path.dirname(/--address unix:(\S+)/.exec(python.args)![1]!);
  expect(existsSync(socketFolder)).toBe(true);
  return { child, socketFolder };
}

function killLeftovers(tag: string): void {
  for (const { pid } of processesIn(HANG, tag)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

describe('no function outlives drift', () => {
  it('SIGKILL: the watchdog stops the whole function group and removes its socket folder within two seconds', async () => {
    const tag = randomUUID();
    const { child, socketFolder } = await stuckDrift(tag);
    try {
      const watchdogs = () => listProcesses().filter((p) => p.args.startsWith('/bin/sh -c') && p.args.includes(socketFolder));
      // Spawned just after the function: under load its exec may not have happened yet.
      await waitFor(() => watchdogs().length === 1, 5_000, 'the watchdog to start');
      expect(watchdogs()).toHaveLength(1);
      child.kill('SIGKILL');
      const run = await child;
      expect(run.signal).toBe('SIGKILL');
      const killed = Date.now();
      await waitFor(() => processesIn(HANG, tag).length === 0 && !existsSync(socketFolder), 2_000, 'the function group and its socket folder to go');
      console.log(`SIGKILL: function group and socket folder gone ${Date.now() - killed} ms after drift died`);
      // Its work done, the watchdog is gone too.
      await waitFor(() => watchdogs().length === 0, 1_000, 'the watchdog to exit');
    } finally {
      child.kill('SIGKILL');
      killLeftovers(tag);
    }
  });

  it('SIGHUP: drift exits 129 and stops its functions itself', async () => {
    const tag = randomUUID();
    const { child, socketFolder } = await stuckDrift(tag);
    try {
      child.kill('SIGHUP');
      const run = await child;
      expect(run.exitCode).toBe(129);
      // drift signals the group and exits; the kernel reaps the group a few ms later (22–29 ms measured,
      // more on a loaded machine), so wait for it with the SIGKILL test's deadline rather than look once.
      const exited = Date.now();
      await waitFor(() => processesIn(HANG, tag).length === 0 && !existsSync(socketFolder), 2_000, 'the function group and its socket folder to go');
      console.log(`SIGHUP: function group and socket folder gone ${Date.now() - exited} ms after drift exited`);
    } finally {
      child.kill('SIGKILL');
      killLeftovers(tag);
    }
  });
});

describe('the command line', () => {
  const drift = async (args: string[]) => {
    const run = await runDrift(args, REPO);
    return { ...run, stdout: run.stdout.replace(/\n$/, ''), stderr: run.stderr.replace(/\n$/, '') };
  };

  it('runs main twice in one process with different outcomes, each returning its own exit code and output', async () => {
    const listed = await drift(['list']);
    const refused = await drift(['accept', 'not-an-id', '--reason', 'because']);
    const listedAgain = await drift(['list']);
    expect([listed.exitCode, refused.exitCode, listedAgain.exitCode]).toEqual([0, 2, 0]);
    expect(listed.stdout).toContain('providers:');
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('"not-an-id" is not a divergence, split or rule finding id');
    // Nothing of the refusal leaks into the next run: no exit code, no output left behind.
    expect(listedAgain).toEqual(listed);
  });

  it('--version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const run = await drift([flag]);
      expect([run.exitCode, run.stdout, run.stderr]).toEqual([0, version, '']);
    }
  });

  it('refuses --step with --all-steps, before rendering anything', async () => {
    const run = await drift(['render', '-p', 'gke', '-s', 'converge', '--step', '1', '--all-steps']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("option '--step <n>' cannot be used with option '--all-steps'");
    expect(run.stdout).toBe('');
  });

  it('refuses a YAML alias bomb with the file, line and column, and no stack trace', async () => {
    const bomb = ['description: boom', 'a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)];
    const project = tempProject({ providers: path.join(REPO, 'providers/*/provider.yaml'), scenarios: 'scenarios/*.yaml' });
    cleanups.push(project.remove);
    const file = writeFiles(project.dir, { 'scenarios/bomb.yaml': `${bomb.join('\n')}\n` })['scenarios/bomb.yaml']!;
    const run = await drift(['--config', project.configFile, 'list']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim()).toBe(`drift: ${file}:3:8: its aliases expand too far (more than 100 times: a YAML alias bomb?); write the values out instead of referring to them with *aliases`);
  });

  it('counts in the singular when there is one provider and one scenario', async () => {
    const run = await drift(['diff', '-p', 'gke', '-s', 'converge']);
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^1 provider × 1 scenario: no findings/);
  }, 60_000);
});
