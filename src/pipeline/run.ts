import pLimit from 'p-limit';
import type { Adapter, Project } from '../config/types.js';
import { providerKey, type EnvironmentHashes } from '../functions/answerKey.js';
import { compareText } from '../util/objects.js';
import type { CellOptions, CellResult } from './cell.js';
import { ProviderCells } from './cellCache.js';
import type { ProviderRun, RunOptions } from './runTypes.js';

export type { ProviderRun, RunOptions } from './runTypes.js';

export interface RunResult {
  providers: ProviderRun[];
  /** In matrix order (provider, scenario), whatever order they finished in. */
  cells: CellResult[];
  calls: number;
}

/**
 * Maps the cell pipeline over providers × scenarios. Each provider's function runs once: start it,
 * run every scenario's cell against it with concurrent calls, stop it. `concurrency` bounds how many
 * functions run at once, so memory and CPU stay bounded however many providers there are. A
 * provider that fails never hides the others: its cells carry the error, the rest render.
 */
export async function runProject(project: Project, options: RunOptions = {}): Promise<RunResult> {
  const limit = pLimit(project.config.concurrency);
  // Providers sharing a Python environment hash it once per run, never across runs (drift mcp).
  const hashes: EnvironmentHashes = new Map();
  const runs = await Promise.all(project.adapters.map((adapter) => limit(() => runProvider(project, adapter, options, hashes))));
  const providers = runs.map((run) => run.provider).sort((a, b) => compareText(a.provider, b.provider));
  const cells = runs.flatMap((run) => run.cells).sort((a, b) => compareText(a.provider, b.provider) || compareText(a.scenario, b.scenario));
  return { providers, cells, calls: providers.reduce((sum, run) => sum + run.calls, 0) };
}

async function runProvider(project: Project, adapter: Adapter, options: RunOptions, hashes: EnvironmentHashes): Promise<{ provider: ProviderRun; cells: CellResult[] }> {
  const emit = options.onEvent ?? (() => {});
  emit({ type: 'provider-starting', provider: adapter.name, scenarios: project.scenarios.length });
  const folder = cacheFolderOf(project);
  // The answer cache's key, which also tells whether a process kept for the provider still runs its code (functions/pool.ts).
  const key = folder === undefined && !options.pool ? undefined : options.keys?.has(adapter.name) ? options.keys.get(adapter.name) : providerKey(adapter, project.env, hashes);
  const cellOptions: CellOptions = {
    maxSteps: project.config.maxSteps,
    determinism: options.determinism !== false,
    gating: options.gating !== false,
    // DRIFT_PROBES=empty: each intent probe simulated whole, what the converged-world probe is checked against.
    probes: options.probes ?? (project.env.DRIFT_PROBES === 'empty' ? 'empty' : 'converged'),
  };
  // Whole cells only where their answers are kept: a cell cached carries its replays' verdict.
  const known = folder !== undefined && key !== undefined && cellOptions.determinism && options.reuseCells !== false ? ProviderCells.open(folder!, adapter, key, cellOptions, project.config.root) : undefined;
  const hits = known ? project.scenarios.map((scenario) => known.get(scenario)) : [];
  if (known && hits.every((hit) => hit !== undefined)) {
    // An unchanged provider: every cell from the cache, no process, nothing simulated, nothing more loaded.
    for (const cell of hits) {
      emit({ type: 'cell-rendered', provider: adapter.name, scenario: cell.scenario, ms: 0, steps: cell.trace.steps.length });
      emit({ type: 'cell-done', provider: adapter.name, scenario: cell.scenario });
    }
    return { provider: { provider: adapter.name, startMs: 0, calls: 0, cached: 0, cachedCells: hits.length }, cells: hits };
  }
  const { renderProvider } = await import('./providerRender.js');
  return renderProvider(project, adapter, options, { folder, key: folder === undefined ? undefined : key, poolKey: key, cellOptions, known });
}

/** Where answers (and, under cells/, analysed cells) are kept, unless the cache is off (`--no-cache`, DRIFT_NO_CACHE=1). */
function cacheFolderOf(project: Project): string | undefined {
  return project.cache?.enabled ? project.cache.folder : undefined;
}
