/**
 * A run's own settings over the config's (`--no-cache`, `-j`), the same for the CLI's commands and
 * `drift mcp`: the server once loaded its project without them, so `drift --no-cache mcp` answered
 * from the answer cache. The cache policy is resolved at the edge and handed to loadProject.
 */
import { describe, expect, it } from 'vitest';
import { cachePolicy } from '../../src/cache/policy.js';
import { loadProject, withRunOptions } from '../../src/config/load.js';
import { DriftTools } from '../../src/mcp/tools.js';
import { LOCAL_POLICY } from '../../src/util/ci.js';
import { REPO } from '../helpers/project.js';

describe('withRunOptions', async () => {
  const project = await loadProject(undefined, REPO, {});

  it('leaves the project as loaded when the run sets nothing', () => {
    expect(withRunOptions(project, {})).toBe(project);
  });

  it('sets -j, leaving the loaded project alone', () => {
    const run = withRunOptions(project, { concurrency: 2 });
    expect(run.config.concurrency).toBe(2);
    expect(project.config.concurrency).not.toBe(2);
  });

  it('--no-cache and DRIFT_NO_CACHE=1 are one policy: no cache', () => {
    expect(cachePolicy(REPO, {}, { noCache: true })).toEqual(cachePolicy(REPO, { DRIFT_NO_CACHE: '1' }));
    expect(cachePolicy(REPO, {}, { noCache: true }).enabled).toBe(false);
    expect(cachePolicy(REPO, { DRIFT_NO_CACHE: '0' }).enabled).toBe(true);
    expect(project.cache?.enabled).toBe(true);
  });

  it('is what drift mcp loads, call by call', async () => {
    const setup = { config: undefined, cwd: REPO, env: {}, policy: LOCAL_POLICY, deadlineMs: 1_000 };
    expect((await new DriftTools({ ...setup, cache: cachePolicy(REPO, {}, { noCache: true }) }).project()).cache?.enabled).toBe(false);
    expect((await new DriftTools({ ...setup, concurrency: 1 }).project()).config.concurrency).toBe(1);
    expect((await new DriftTools(setup).project()).cache?.enabled).toBe(true);
  });
});
