import type { Project } from '../config/types.js';
import type { Finding } from '../compare/findings.js';
import type { GoldenStore } from '../goldens/store.js';
import path from 'node:path';

/**
 * Goldens on disk that no selected provider × scenario produces any more. With filters, only goldens
 * inside the filter count: `--provider gke` never calls eks's goldens obsolete.
 */
export async function obsoleteGoldens(
  store: GoldenStore,
  full: Project,
  selected: Project,
  filtered: { providers: boolean; scenarios: boolean },
): Promise<Array<{ provider: string; scenario: string; file: string }>> {
  const providers = new Set(full.adapters.map((a) => a.name));
  const scenarios = new Set(full.scenarios.map((s) => s.name));
  const selectedProviders = new Set(selected.adapters.map((a) => a.name));
  const selectedScenarios = new Set(selected.scenarios.map((s) => s.name));
  return (await store.list()).filter(({ provider, scenario }) => {
    const produced = providers.has(provider) && scenarios.has(scenario);
    if (produced) return false;
    const inProviderFilter = !filtered.providers || selectedProviders.has(provider);
    const inScenarioFilter = !filtered.scenarios || selectedScenarios.has(scenario);
    return inProviderFilter && inScenarioFilter;
  });
}

export function obsoleteFinding({ provider, scenario, file }: { provider: string; scenario: string; file: string }, root: string): Finding {
  return {
    id: `golden-obsolete:${provider}/${scenario}`,
    type: 'golden',
    class: 'behavioral',
    provider,
    scenario,
    subject: 'golden',
    message: `${path.relative(root, file)} is obsolete: no provider × scenario produces it any more`,
    hint: 'run `drift update --prune` to remove it, or restore the provider or scenario',
  };
}
