/**
 * Intent probes from the converged world (one call each) give what probes simulated whole from an
 * empty world give: the same coverage, gates, findings and skeletons, on the bundled providers and
 * on the cross-provider suite's seeded changes to the GKE function. The probes run only in `ablate`
 * scenarios, so only those render. Both runs answer from the suite's answer cache (test/global-setup.ts):
 * an answer is keyed by the function's source tree and the request's bytes, so a replayed answer is
 * the one a live render gives, and each run renders live whatever no earlier run asked (on a cold
 * cache, all of the empty-world run and the converged run's own probes). Neither run takes a cell
 * from the cell cache (reuseCells false): each analyses its own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadProject, selectProject } from '../../src/config/load.js';
import type { Project } from '../../src/config/types.js';
import { runProject, type RunResult } from '../../src/pipeline/run.js';
import { applyEdit, SEEDS, type Seed } from '../helpers/fourth.js';
import { copyProject, REPO } from '../helpers/project.js';

const SLOW = 300_000;

const cells = (result: RunResult) =>
  result.cells.map(({ provider, scenario, skeleton, findings, nondeterministic, gates, coverage }) => ({ provider, scenario, skeleton, findings, nondeterministic, gates, coverage }));

async function ablated(root: string, providers: string[] = []): Promise<Project> {
  const project = await loadProject(undefined, root);
  const scenarios = project.scenarios.filter((scenario) => scenario.ablate).map((scenario) => scenario.name);
  return selectProject(project, providers, scenarios);
}

/** Requests the run made, live or answered from the cache. */
const requests = (result: RunResult) => result.providers.reduce((sum, run) => sum + run.calls + (run.cached ?? 0), 0);

async function both(project: Project): Promise<{ converged: RunResult; empty: RunResult }> {
  const shared = { ...project, cache: { enabled: true, folder: inject('answerCache') } };
  const empty = await runProject(shared, { probes: 'empty', reuseCells: false });
  const converged = await runProject(shared, { probes: 'converged', reuseCells: false });
  return { converged, empty };
}

describe('intent probes from the converged world', () => {
  it('give the bundled providers the same cells as probes from an empty world, in fewer calls', async () => {
    const { converged, empty } = await both(await ablated(REPO));
    expect(converged.cells.some((cell) => cell.coverage && Object.keys(cell.coverage).length > 0)).toBe(true);
    expect(cells(converged)).toEqual(cells(empty));
    expect(requests(converged)).toBeLessThan(requests(empty));
  }, SLOW);

  const copy = copyProject({ prefix: 'drift-probes-' });
  afterAll(() => copy.remove());
  const composer = path.join(copy.dir, 'providers/gke/function/composer.py');
  const original = readFileSync(composer, 'utf8');
  const seeded = (Object.entries(SEEDS) as Array<[string, Seed]>).filter(([, seed]) => seed.composer?.length && !seed.providerYaml);

  it.each(seeded)('give the same cells with the GKE function seeded with %s', async (name, seed) => {
    let text = original;
    for (const edit of seed.composer!) text = applyEdit(text, edit, `${name}: composer.py`);
    writeFileSync(composer, text);
    try {
      const { converged, empty } = await both(await ablated(copy.dir, ['gke']));
      expect(cells(converged)).toEqual(cells(empty));
    } finally {
      writeFileSync(composer, original);
    }
  }, SLOW);
});
