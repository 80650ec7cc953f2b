import type { Adapter, K8sObject, Scenario } from '../config/types.js';
import { intentProblem, mapIntent } from '../config/intent.js';
import { DriftError } from '../errors.js';
import { MemoWeakMap } from '../util/memoMap.js';



// Every simulation of a cell (ablations, replays) starts from the same XR: build it once.
const built = new MemoWeakMap<Adapter, WeakMap<Scenario, K8sObject>>();

/**
 * The provider's XR for a scenario, a fresh copy each call (a world writes its status). loadProject
 * has already mapped every adapter × scenario and reported problems with their locations; one here
 * means the project was not loaded through it.
 */
export function buildXR(adapter: Adapter, scenario: Scenario): K8sObject {
  let byScenario = built.get(adapter);
  if (!byScenario) built.set(adapter, (byScenario = new WeakMap()));
  let xr = byScenario.get(scenario);
  if (!xr) {
    const mapped = mapIntent(adapter, scenario);
    const problem = intentProblem(adapter, scenario, mapped);
    if (problem) throw new DriftError(problem);
    xr = mapped.xr;
    byScenario.set(scenario, xr);
  }
  return structuredClone(xr);
}

/**
 * The world's credential resources for this scenario: the adapter's, renamed to the XR's credentials
 * reference. A namespaced ProviderConfig lives in the XR's namespace.
 */
export function worldCredentials(adapter: Adapter, scenario: Scenario): K8sObject[] {
  const ref = scenario.xr.credentials;
  return adapter.world.credentials.map((resource) => {
    if (!ref) return structuredClone(resource);
    const { namespace: _namespace, ...metadata } = resource.metadata;
    return {
      ...structuredClone(resource),
      kind: ref.kind,
      metadata: { ...metadata, name: ref.name, ...(ref.kind === 'ProviderConfig' ? { namespace: scenario.xr.namespace } : {}) },
    };
  });
}
