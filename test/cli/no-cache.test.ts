/**
 * `--no-cache` and DRIFT_NO_CACHE=1 mean the same: no cache is read or written. A preloaded spy
 * (test/fixtures/spy/fs-spy.cjs) records every file-system call under the cache folder of the real
 * drift process, so any cache the flag missed shows as a line.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDriftProcess } from '../helpers/drift.js';
import { REPO, tempDir } from '../helpers/project.js';

const temp = tempDir('drift-no-cache-');
afterAll(() => temp.remove());
const cache = path.join(temp.dir, 'cache');
const log = path.join(temp.dir, 'spy.log');

async function spied(args: string[], env: Record<string, string>): Promise<string[]> {
  rmSync(log, { force: true });
  const run = await runDriftProcess(args, REPO, {
    DRIFT_CACHE_DIR: cache,
    DRIFT_SPY_FOLDER: cache,
    DRIFT_SPY_LOG: log,
    NODE_OPTIONS: `--require ${path.join(REPO, 'test/fixtures/spy/fs-spy.cjs')}`,
    ...env,
  });
  expect(run.stderr).toBe('');
  expect(run.exitCode).toBe(0);
  try {
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

describe('no cache', () => {
  const diff = ['diff', '-p', 'gke', '-s', 'converge'];

  it('a cached run reads and writes the cache folder (the spy sees it)', async () => {
    const calls = await spied(diff, { DRIFT_NO_CACHE: '0' });
    expect(calls.some((call) => call.startsWith('openSync') || call.startsWith('writeFileSync'))).toBe(true);
    expect((await spied(diff, { DRIFT_NO_CACHE: '0' })).some((call) => call.startsWith('readFileSync'))).toBe(true);
  });

  it('--no-cache touches nothing under the cache folder, nor does DRIFT_NO_CACHE=1', async () => {
    expect(await spied(['--no-cache', ...diff], { DRIFT_NO_CACHE: '0' })).toEqual([]);
    expect(await spied(diff, { DRIFT_NO_CACHE: '1' })).toEqual([]);
  });
});
