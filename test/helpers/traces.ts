/** Traces built by hand for the pure parts: what a simulation would have recorded, minus the simulation. */
import type { JsonObject } from '../../src/util/objects.js';
import type { StepRecord, Trace } from '../../src/world/trace.js';

export const XR = { name: 'demo', namespace: 'ml-team', uid: '00000000-0000-0000-0000-000000000001' };

/** One provider that converged in one step: `resources` composed, every one marked READY_TRUE, the XR Ready. */
export function convergedTrace(provider: string, resources: Record<string, JsonObject>): Trace {
  const step: StepRecord = {
    index: 0,
    phase: 'converge',
    calls: 1,
    requirements: {},
    satisfied: [],
    status: {},
    resources: Object.fromEntries(Object.entries(resources).map(([key, resource]) => [key, { resource, ready: 'True' as const }])),
    results: [],
    dropped: [],
    xrReady: true,
    xr: { apiVersion: 'example.org/v1', kind: 'XCluster', metadata: { name: XR.name, namespace: XR.namespace } },
    names: {},
  };
  return { provider, scenario: 'converge', xr: XR, steps: [step], converged: { step: 0, xrReady: true }, perturbations: [] };
}
