/**
 * Intent coverage: which of a pool's intent values reach the resources the function composes. Found
 * by difference, never by searching a body for a value: the scenario is rendered again with one
 * value of one pool changed, and a resource whose body then changes is reached by that value. A
 * value the function silently ignores changes nothing.
 */
import type { Adapter, Scenario, ScenarioPool } from '../config/types.js';
import { stableStringify } from '../util/objects.js';
import type { DesiredResource, Trace } from '../world/trace.js';
import { INTENT_FIELDS, type IntentField } from '../skeleton/types.js';

export type { IntentField };

export interface IntentProbe {
  pool: string;
  field: IntentField;
  scenario: Scenario;
}

/**
 * Another value for one field that a function honouring it must answer differently to, kept within
 * the pool's own bounds (a function may clamp). Undefined when the pool does not set the field or
 * no such value exists (no other GPU mapped by the adapter).
 */
function probeValue(pool: ScenarioPool, field: IntentField, gpus: readonly string[]): ScenarioPool[IntentField] | undefined {
  const min = pool.minNodeCount ?? 0;
  switch (field) {
    case 'nodeCount':
      if (pool.maxNodeCount === undefined || pool.nodeCount < pool.maxNodeCount) return pool.nodeCount + 1;
      return pool.nodeCount > min ? pool.nodeCount - 1 : undefined;
    case 'minNodeCount':
      if (pool.minNodeCount === undefined) return undefined;
      return pool.minNodeCount < pool.nodeCount ? pool.minNodeCount + 1 : pool.minNodeCount > 0 ? pool.minNodeCount - 1 : undefined;
    case 'maxNodeCount':
      return pool.maxNodeCount === undefined ? undefined : pool.maxNodeCount + 1;
    case 'gpu':
      return pool.gpu === undefined ? undefined : gpus.find((gpu) => gpu !== pool.gpu);
    case 'gpuCount':
      return pool.gpu === undefined || pool.gpuCount === undefined ? undefined : pool.gpuCount + 1;
    case 'zones':
      // Zones count from one: 1 and 2 differ for every function; 2 and 3 may not (two subnets).
      // Zones given by name probe with the first name only, or with two zones by count.
      if (pool.zones === undefined) return undefined;
      if (Array.isArray(pool.zones)) return pool.zones.length > 1 ? pool.zones.slice(0, 1) : 2;
      return pool.zones > 1 ? 1 : 2;
  }
}

/** One probe per intent value each pool of the scenario sets. */
export function probesFor(adapter: Pick<Adapter, 'xr'>, scenario: Scenario): IntentProbe[] {
  const gpus = Object.keys(adapter.xr.gpus).sort();
  const probes: IntentProbe[] = [];
  scenario.xr.nodePools.forEach((pool, index) => {
    for (const field of INTENT_FIELDS) {
      const value = probeValue(pool, field, gpus);
      if (value === undefined) continue;
      const nodePools = scenario.xr.nodePools.map((other, i) => (i === index ? { ...other, [field]: value } : other));
      probes.push({ pool: pool.name, field, scenario: { ...scenario, xr: { ...scenario.xr, nodePools }, then: [], probe: `drift's ${field} probe (pools[${index}].${field} = ${JSON.stringify(value)})` } });
    }
  });
  return probes;
}

/** What a run composed once settled: the converged step's resources, else the last converging step's. */
export function settledResources(trace: Trace): Record<string, DesiredResource> {
  const converging = trace.steps.filter((step) => step.phase === 'converge');
  const final = trace.converged ? trace.steps[trace.converged.step] : converging[converging.length - 1];
  return final?.resources ?? {};
}

/** Each key's body, as canonical text. */
function bodies(resources: Record<string, DesiredResource>): Map<string, string> {
  return new Map(Object.entries(resources).map(([key, desired]) => [key, stableStringify(desired.resource)]));
}

/**
 * The intent fields that reach each key: those whose probe changed its body (or made it go), given
 * what each probe composed once settled. Sorted as INTENT_FIELDS.
 */
export function coverageFrom(baseline: Trace, runs: Array<{ field: IntentField; settled: Record<string, DesiredResource> }>): Record<string, IntentField[]> {
  const before = bodies(settledResources(baseline));
  const reached = new Map<string, Set<IntentField>>();
  for (const run of runs) {
    const after = bodies(run.settled);
    for (const [key, body] of before) {
      if (after.get(key) === body) continue;
      const fields = reached.get(key) ?? new Set<IntentField>();
      fields.add(run.field);
      reached.set(key, fields);
    }
  }
  return Object.fromEntries([...reached].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, fields]) => [key, INTENT_FIELDS.filter((field) => fields.has(field))]));
}
