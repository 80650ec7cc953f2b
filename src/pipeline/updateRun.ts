import type { Project } from '../config/types.js';
import type { GoldenEnvironment } from '../goldens/environment.js';
import { goldenFile } from '../goldens/environment.js';
import type { GoldenCell, GoldenChange, GoldenState } from '../goldens/state.js';
import { refuseUnless } from '../util/ci.js';
import type { CellResult } from './cell.js';
import type { OnEvent } from './events.js';
import { goldensOf, goldenStateFor, type Filters } from './goldens.js';
import path from 'node:path';
import { toCanonicalOutline } from '../outline/canonicalOutline.js';
import { outlineFile } from '../goldens/environment.js';
import { runProject, type RunResult } from './run.js';
import { outlineSources, readProjectSources, type OutlinedSource } from './sourcesRun.js';

export interface UpdateInput {
  full: Project;
  project: Project;
  filters: Filters;
  /** Also remove the goldens nothing produces any more. */
  prune: boolean;
  env?: GoldenEnvironment;
  onEvent?: OnEvent;
}

/** What became of one cell's golden: written (or already right), or not written and why. */
export type GoldenWrite = { file: string; change: GoldenChange } | { file: string; change: 'not written'; why: string };

export interface UpdateResult {
  run: RunResult;
  goldens: GoldenState;
  /** One per cell, in matrix order. */
  writes: GoldenWrite[];
  /** One per provider whose outline golden this run wrote, left or refused. */
  outlineWrites: GoldenWrite[];
  outlined: OutlinedSource[];
  removed: GoldenCell[];
  swept: string[];
}

/** Why a cell's skeleton must not become its golden, if it must not. */
function refusal(cell: CellResult): string | undefined {
  if (cell.nondeterministic) return `the function is not deterministic: two renders differ at ${cell.nondeterministic}`;
  return cell.findings.find((finding) => finding.type === 'error')?.message;
}

/**
 * `drift update`: renders the selected cells and writes each one's golden unless it failed to
 * render or rendered non-deterministically; with `prune`, removes goldens nothing produces. Refused
 * under CI before anything renders.
 */
export async function updateGoldens({ full, project, filters, prune, env: given, onEvent }: UpdateInput): Promise<UpdateResult> {
  refuseUnless(project.policy.write, 'goldens');
  const env = goldensOf(project, given);
  const swept = env.sweep();
  const goldens = goldenStateFor(full, env, filters);
  const outlining = outlineSources(await readProjectSources(project), project, onEvent);
  // Awaited after the renders: an error of its own (a query of drift's that does not compile) is
  // rethrown there, exit 2, and must not end the process first as an unhandled rejection.
  outlining.catch(() => undefined);
  const run = await runProject(project, onEvent ? { onEvent } : {});
  const outlined = await outlining;
  const writes = run.cells.map((cell): GoldenWrite => {
    const file = goldenFile(cell.provider, cell.scenario);
    const why = refusal(cell);
    if (why === undefined) return { file, change: goldens.save(cell.skeleton) };
    goldens.refuse();
    return { file, change: 'not written', why };
  });
  // Each selected provider's outline beside its skeletons; never one of a file that does not parse.
  // It belongs to no scenario: --scenario adds a missing one and leaves an existing one. A provider
  // none of whose cells could be written gets no goldens at all, its outline included.
  const written = new Set(run.cells.filter((cell) => refusal(cell) === undefined).map((cell) => cell.provider));
  const outlineWrites = outlined.flatMap(({ adapter, result }): GoldenWrite[] => {
    const file = outlineFile(adapter.name);
    if (!written.has(adapter.name)) return [];
    if (result.syntaxErrors.length > 0) {
      const { file: source, line } = result.syntaxErrors[0]!;
      goldens.refuse();
      const shown = path.relative(project.config.root, path.join(adapter.source?.root ?? adapter.function.cwd, source));
      return [{ file, change: 'not written', why: `${shown}:${line} does not parse` }];
    }
    if (filters.scenarios.length > 0 && goldens.readOutline(adapter.name) !== undefined) {
      goldens.outlines.unchanged += 1;
      return [{ file, change: 'unchanged' }];
    }
    return [{ file, change: goldens.saveOutline(adapter.name, toCanonicalOutline(result.outline)) }];
  });
  const removed = prune ? goldens.prune() : [];
  return { run, goldens, writes, outlineWrites, outlined, removed, swept };
}
