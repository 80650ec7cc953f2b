/** The built drift CLI, run as a user runs it. Vitest's global set-up (test/global-setup.ts) builds it once per run. */
import { execa } from 'execa';
import { inject } from 'vitest';

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
 * Runs the built CLI in `cwd`. Never rejects; CI is removed from the environment unless `env` sets
 * it, so a test run inside CI still exercises `drift update`.
 */
export async function runDrift(args: string[], cwd: string, env: Record<string, string> = {}): Promise<DriftRun> {
  const base: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (name !== 'CI' && value !== undefined) base[name] = value;
  const result = await execa('node', [driftBin(), ...args], {
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
