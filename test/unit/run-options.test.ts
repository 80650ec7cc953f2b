/**
 * A run's own settings over the config's (`--no-cache`, `-j`), the same for the CLI's commands and
 * `drift mcp`: the server once loaded its project without them, so `drift --no-cache mcp` answered
 * from the answer cache.
 */
import { describe, expect, it } from 'vitest';
import { loadProject, withRunOptions } from '../../src/config/load.js';
import { DriftTools } from '../../src/mcp/tools.js';
import { LOCAL_POLICY } from '../../src/util/ci.js';
import { REPO } from '../helpers/project.js';

describe('withRunOptions', async () => {
  const project = await loadProject(undefined, REPO, {});

  it('leaves the project as loaded when the run sets nothing', () => {
    expect(withRunOptions(project, {})).toBe(project);
    expect(withRunOptions(project, { cache: true })).toBe(project);
  });

  it('turns every cache off for --no-cache and sets -j, leaving the loaded project alone', () => {
    const run = withRunOptions(project, { cache: false, concurrency: 2 });
    expect(run.answerCache).toBe(false);
    expect(run.config.concurrency).toBe(2);
    expect(project.answerCache).toBeUndefined();
    expect(project.config.concurrency).not.toBe(2);
    expect(withRunOptions(project, { concurrency: 2 }).answerCache).toBeUndefined();
  });

  it('is what drift mcp loads, call by call', async () => {
    const setup = { config: undefined, cwd: REPO, env: {}, policy: LOCAL_POLICY, deadlineMs: 1_000 };
    expect((await new DriftTools({ ...setup, cache: false }).project()).answerCache).toBe(false);
    expect((await new DriftTools({ ...setup, concurrency: 1 }).project()).config.concurrency).toBe(1);
    expect((await new DriftTools(setup).project()).answerCache).toBeUndefined();
  });
});
