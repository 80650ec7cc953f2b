/** The built drift CLI, run as a user runs it. Vitest's global set-up (test/global-setup.ts) builds it once per run. */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { inject } from 'vitest';
import { REPO } from './project.js';

/** `node <driftBin()> ...` runs drift compiled from the sources as they were when this test run started. */
export function driftBin(): string {
  const bin = inject('driftBin');
  if (!bin) throw new Error('no built drift: run the tests through vitest, whose global set-up builds it (test/global-setup.ts)');
  return bin;
}

export interface DriftRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr, for assertions that do not care which. */
  all: string;
}

/**
 * Runs the built CLI (or another build's `bin`) in `cwd`. Never rejects; CI is removed from the
 * environment unless `env` sets it, so a test run inside CI still exercises `drift update`.
 */
export async function runDrift(args: string[], cwd: string, env: Record<string, string> = {}, bin = driftBin()): Promise<DriftRun> {
  const base: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (name !== 'CI' && value !== undefined) base[name] = value;
  const result = await execa('node', [bin, ...args], {
    cwd,
    env: { ...base, NO_COLOR: '1', ...env },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
  });
  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '');
  return { exitCode: result.exitCode ?? -1, stdout, stderr, all: `${stdout}${stderr}` };
}

/**
 * A copy of this run's build (bin, dist, schemas, package.json) with the repository's README.md and
 * scripts/, node_modules linked: a test may edit what the built rules say without touching the
 * build every other test runs.
 */
export function copyPackage(): { dir: string; bin: string; remove: () => void } {
  const build = path.dirname(path.dirname(driftBin()));
  const dir = mkdtempSync(path.join(tmpdir(), 'drift-package-'));
  for (const entry of ['bin', 'dist', 'schemas', 'package.json']) cpSync(path.join(build, entry), path.join(dir, entry), { recursive: true });
  for (const entry of ['scripts', 'README.md']) cpSync(path.join(REPO, entry), path.join(dir, entry), { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return { dir, bin: path.join(dir, 'bin/drift.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
