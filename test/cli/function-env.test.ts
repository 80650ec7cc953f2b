/**
 * A function starts with an explicit environment (src/functions/functionEnv.ts): what it needs to run
 * and the names its adapter passes through, nothing else of drift's. The answer cache keys on exactly
 * that environment, so a passed variable's new value is a new verdict, the same one `--no-cache` gives.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionEnv } from '../../src/functions/functionEnv.js';
import { runDrift } from '../helpers/drift.js';
import { leakyProject } from '../helpers/leaky.js';
import { tempDir } from '../helpers/project.js';

describe("a function's environment", () => {
  let project: { dir: string; remove: () => void };
  let cache: { dir: string; remove: () => void };
  // A cache of this file's own, so the first render of each value is live.
  const env = (shown: string) => ({ DRIFT_CACHE_DIR: cache.dir, LEAKY_MODE: 'event', LEAKY_SHOWN: shown, LEAKY_HIDDEN: 'not-for-the-function', GITHUB_TOKEN: 'ghp_notforthefunction0' });
  const golden = () => readFileSync(path.join(project.dir, 'goldens/leaky/one.yaml'), 'utf8');

  beforeAll(async () => {
    project = leakyProject();
    cache = tempDir('drift-env-cache-');
    const update = await runDrift(['update'], project.dir, env('blue'));
    expect(update.exitCode, update.all).toBe(0);
  });
  afterAll(() => {
    project.remove();
    cache.remove();
  });

  it('hands on a variable the adapter lists, and none it does not list', () => {
    expect(golden()).toContain('LEAKY_SHOWN=blue ');
    expect(golden()).toContain('LEAKY_HIDDEN=<unset> GITHUB_TOKEN=<unset>');
    expect(golden()).not.toContain('not-for-the-function');
  });

  it("changes the verdict with a listed variable's value, cached as uncached", async () => {
    const same = await runDrift(['diff', '--format', 'json'], project.dir, env('blue'));
    expect(same.stdout).not.toContain('golden-mismatch');
    const cached = await runDrift(['diff', '--format', 'json'], project.dir, env('green'));
    const live = await runDrift(['--no-cache', 'diff', '--format', 'json'], project.dir, env('green'));
    expect(cached.exitCode).toBe(1);
    expect(cached.stdout).toContain('"id": "golden:leaky/one');
    expect(cached.stdout).toBe(live.stdout);
    expect(cached.stdout).not.toBe(same.stdout);
  });

  it('keeps PATH, HOME, TMPDIR, the locale and the SDK variables, sets the adapter values last, in a fixed order', () => {
    const adapter = { function: { command: ['python'], cwd: '/x', env: { LEAKY_SHOWN: 'set', DEBUG: 'yes' }, passEnv: ['EXTRA'] } };
    const drifts = { PATH: '/bin', HOME: '/h', TMPDIR: '/t', LANG: 'C.UTF-8', LC_ALL: 'C', DEBUG: 'no', EXTRA: 'e', GITHUB_TOKEN: 'x', LEAKY_SHOWN: 'drift', OTHER: 'o' };
    expect(functionEnv(adapter, drifts)).toEqual({ DEBUG: 'yes', EXTRA: 'e', HOME: '/h', LANG: 'C.UTF-8', LC_ALL: 'C', LEAKY_SHOWN: 'set', PATH: '/bin', PYTHONUNBUFFERED: '1', TMPDIR: '/t' });
    expect(Object.keys(functionEnv(adapter, drifts))).toEqual(Object.keys(functionEnv(adapter, drifts)).sort());
  });
});
