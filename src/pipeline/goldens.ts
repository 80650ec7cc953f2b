import path from 'node:path';
import type { Project } from '../config/types.js';
import type { GoldenEnvironment } from '../goldens/environment.js';
import { GoldenState } from '../goldens/state.js';
import { GoldenStore } from '../goldens/store.js';

/** The --provider / --scenario filters a command was given (empty: everything). */
export interface Filters {
  providers: string[];
  scenarios: string[];
  /** `providers` is exactly what renders, even when empty (`--changed` with nothing to render), not "every provider". */
  exact?: boolean;
}

export const isFiltered = (filters: Filters): boolean => filters.exact === true || filters.providers.length > 0 || filters.scenarios.length > 0;

/** The project's goldens folder on disk, unless a test gives another environment. */
export function goldensOf(project: Project, env?: GoldenEnvironment): GoldenEnvironment {
  return env ?? GoldenStore.of(project);
}

/**
 * The golden state of a run over `project` (the selection) within `full` (the whole
 * configuration), whose goldens folder findings name relative to the project root.
 */
export function goldenStateFor(full: Project, env: GoldenEnvironment, filters: Filters): GoldenState {
  const label = path.isAbsolute(env.dir) ? path.relative(full.config.root, env.dir) : env.dir;
  return new GoldenState(
    env,
    {
      providers: full.adapters.map((adapter) => adapter.name),
      scenarios: full.scenarios.map((scenario) => scenario.name),
      // Only the rendered providers' goldens can be obsolete; with none rendered, none can.
      only: { ...(filters.providers.length > 0 || filters.exact ? { providers: filters.providers } : {}), ...(filters.scenarios.length > 0 ? { scenarios: filters.scenarios } : {}) },
    },
    label,
    full.cache,
  );
}
