/**
 * The persistent answer and cell caches over real functions: a second run of an unchanged provider
 * starts no process, simulates nothing and gives the same cells; without the cells, the answers alone
 * do the same; a change to the function's source misses; a cell whose determinism replays disagreed
 * writes nothing, so its verdict is found again; off, it writes nothing.
 */
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProject, selectProject } from '../../src/config/load.js';
import type { Project } from '../../src/config/types.js';
import type { RunEvent } from '../../src/pipeline/events.js';
import { runProject, type RunResult } from '../../src/pipeline/run.js';
import { copyProject, mutate, REPO, tempDir } from '../helpers/project.js';

const copy = copyProject({ prefix: 'drift-answer-cache-' });
const cache = tempDir('drift-answers-');
afterAll(() => {
  copy.remove();
  cache.remove();
});

async function run(project: Project): Promise<{ result: RunResult; started: string[] }> {
  const started: string[] = [];
  const onEvent = (event: RunEvent) => {
    if (event.type === 'provider-started') started.push(event.provider);
  };
  return { result: await runProject(project, { onEvent }), started };
}

/** What a cell amounts to, without its timing. */
const cells = (result: RunResult) => result.cells.map(({ provider, scenario, skeleton, findings, nondeterministic, gates, coverage }) => ({ provider, scenario, skeleton, findings, nondeterministic, gates, coverage }));

/** The cache policy of a run whose answers, cells and outlines live in `folder` (false: no cache). */
const policy = (folder: string | false) => ({ enabled: folder !== false, folder: folder === false ? '/nonexistent' : folder });

async function vultr(folder: string | false): Promise<Project> {
  const project = selectProject(await loadProject(undefined, copy.dir), ['vultr'], ['converge', 'credentials-lost']);
  return { ...project, cache: policy(folder) };
}

describe('the answer cache', () => {
  it('answers an unchanged provider without starting its function, with the same cells', async () => {
    const folder = path.join(cache.dir, 'same');
    const first = await run(await vultr(folder));
    expect(first.started).toEqual(['vultr']);
    expect(first.result.calls).toBeGreaterThan(5);
    expect(readdirSync(folder).filter((name) => name.startsWith('vultr-'))).toHaveLength(1);

    expect(readdirSync(path.join(folder, 'cells')).filter((name) => name.startsWith('vultr-'))).toHaveLength(1);

    // Whole cells from the cell cache: no request is even asked of the answers.
    const second = await run(await vultr(folder));
    expect(second.started).toEqual([]);
    expect(second.result.calls).toBe(0);
    expect(second.result.providers[0]).toMatchObject({ cached: 0, cachedCells: 2 });
    expect(cells(second.result)).toEqual(cells(first.result));

    // Without the cells, every request is answered from the answers: simulated again, still no process.
    rmSync(path.join(folder, 'cells'), { recursive: true });
    const third = await run(await vultr(folder));
    expect(third.started).toEqual([]);
    expect(third.result.calls).toBe(0);
    expect(third.result.providers[0]!.cachedCells).toBe(0);
    expect(third.result.providers[0]!.cached).toBeGreaterThan(first.result.calls - 1);
    expect(cells(third.result)).toEqual(cells(first.result));
  });

  it('shares cells between two checkouts of the same tree', async () => {
    const folder = path.join(cache.dir, 'checkouts');
    await run(await vultr(folder));
    const other = copyProject({ prefix: 'drift-answer-cache-other-' });
    try {
      const project = { ...selectProject(await loadProject(undefined, other.dir), ['vultr'], ['converge', 'credentials-lost']), cache: policy(folder) };
      const again = await run(project);
      expect(again.started).toEqual([]);
      expect(again.result.providers[0]!.cachedCells).toBe(2);
    } finally {
      other.remove();
    }
  });

  it('analyses a changed scenario again and keeps the unchanged one', async () => {
    const folder = path.join(cache.dir, 'scenario');
    await run(await vultr(folder));
    const project = await vultr(folder);
    const changed = { ...project, scenarios: project.scenarios.map((scenario) => (scenario.name === 'converge' ? { ...scenario, description: `${scenario.description ?? ''} (changed)` } : scenario)) };
    const after = await run(changed);
    expect(after.result.providers[0]!.cachedCells).toBe(1);
  });

  it('misses once the function source changes, and starts the function again', async () => {
    const folder = path.join(cache.dir, 'changed');
    await run(await vultr(folder));
    mutate(copy.dir, 'vultr', 'function/__init__.py', (text) => `${text}\n# a comment changes the tree, not the answers\n`);
    const after = await run(await vultr(folder));
    expect(after.started).toEqual(['vultr']);
    expect(after.result.providers[0]!.cached).toBe(0);
    expect(readdirSync(folder).filter((name) => name.startsWith('vultr-'))).toHaveLength(2);
  });

  it('writes nothing when off', async () => {
    const folder = path.join(cache.dir, 'off');
    const off = await run(await vultr(false));
    expect(off.started).toEqual(['vultr']);
    expect(existsSync(folder)).toBe(false);
  });

  it('keeps no answer of a cell whose replays disagreed: the next run finds it non-deterministic again', async () => {
    const folder = path.join(cache.dir, 'nondeterministic');
    const config = path.join(copy.dir, 'nondeterministic.config.yaml');
    // Where the repository keeps it, so its command's ../../../.venv is the copy's venv link.
    cpSync(path.join(REPO, 'test/fixtures/nondeterministic'), path.join(copy.dir, 'test/fixtures/nondeterministic'), { recursive: true });
    writeFileSync(config, 'providers: [test/fixtures/nondeterministic/provider.yaml]\nscenarios: [scenarios/*.yaml]\ngoldens: goldens\n');
    const project = async () => ({ ...selectProject(await loadProject(config, copy.dir), [], ['converge']), cache: policy(folder) });
    const first = await run(await project());
    expect(first.result.cells[0]!.nondeterministic).toBeDefined();
    const second = await run(await project());
    expect(second.started).toEqual(['nondeterministic']);
    expect(second.result.cells[0]!.nondeterministic).toBeDefined();
  });
});
