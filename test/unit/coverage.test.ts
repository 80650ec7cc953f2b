/** Intent coverage: probes, the difference they make, and the facet across providers. */
import { describe, expect, it } from 'vitest';
import { coverageFrom, probesFor, settledResources, type IntentField } from '../../src/compare/intentCoverage.js';
import { compareAcross } from '../../src/compare/cross.js';
import type { JsonObject } from '../../src/util/objects.js';
import { convergedTrace } from '../helpers/traces.js';
import { goodSkeleton, scenarioOf } from '../helpers/fourth.js';

const ADAPTER = { xr: { apiVersion: 'x/v1', kind: 'X', spec: {}, gpus: { H100: {}, L4: {} }, ignore: {} } };

describe('probesFor', () => {
  it('changes one value of one pool at a time, within the pool’s bounds, only for values the pool sets', () => {
    const scenario = scenarioOf('converge', { xr: { nodePools: [{ name: 'gpu', gpu: 'L4', gpuCount: 1, nodeCount: 1, minNodeCount: 0, maxNodeCount: 4, zones: 2 }, { name: 'cpu', nodeCount: 3, maxNodeCount: 3 }] } });
    const probes = probesFor(ADAPTER, scenario);
    const changed = probes.map((probe) => {
      const index = scenario.xr.nodePools.findIndex((pool) => pool.name === probe.pool);
      const pool = probe.scenario.xr.nodePools[index]!;
      // Every other pool is left alone.
      probe.scenario.xr.nodePools.forEach((other, i) => i !== index && expect(other).toEqual(scenario.xr.nodePools[i]));
      return `${probe.pool}.${probe.field}=${String(pool[probe.field])}`;
    });
    expect(changed).toEqual(['gpu.nodeCount=2', 'gpu.minNodeCount=1', 'gpu.maxNodeCount=5', 'gpu.gpu=H100', 'gpu.gpuCount=2', 'gpu.zones=1', 'cpu.nodeCount=2', 'cpu.maxNodeCount=4']);
    // The scenario itself is never changed.
    expect(scenario.xr.nodePools[0]!.nodeCount).toBe(1);
  });

  it('has no GPU probe when the adapter maps no other GPU', () => {
    const only = { xr: { ...ADAPTER.xr, gpus: { L4: {} } } };
    expect(probesFor(only, scenarioOf('converge', { xr: { nodePools: [{ name: 'gpu', gpu: 'L4', nodeCount: 1 }] } })).map((p) => p.field)).toEqual(['nodeCount']);
  });
});

const traceOf = (resources: Record<string, JsonObject>) => convergedTrace('p', resources);

describe('coverageFrom', () => {
  const pool = (spec: JsonObject) => ({ apiVersion: 'c/v1', kind: 'NodePool', spec: { forProvider: spec } });
  const baseline = traceOf({ cluster: { kind: 'Cluster' }, 'nodepool-gpu': pool({ nodeCount: 1, autoscaling: { min: 0, max: 4 } }) });

  it('names the fields whose probe changed a resource’s body, and nothing for a value it ignores', () => {
    const runs: Array<{ field: IntentField; settled: ReturnType<typeof settledResources> }> = [
      { field: 'nodeCount', settled: settledResources(traceOf({ cluster: { kind: 'Cluster' }, 'nodepool-gpu': pool({ nodeCount: 2, autoscaling: { min: 0, max: 4 } }) })) },
      { field: 'maxNodeCount', settled: settledResources(traceOf({ cluster: { kind: 'Cluster' }, 'nodepool-gpu': pool({ nodeCount: 1, autoscaling: { min: 0, max: 5 } }) })) },
      // The function ignores the GPU count: the same answer.
      { field: 'gpuCount', settled: settledResources(baseline) },
    ];
    expect(coverageFrom(baseline, runs)).toEqual({ 'nodepool-gpu': ['nodeCount', 'maxNodeCount'] });
  });

  it('counts a resource that goes away under a probe as reached', () => {
    expect(coverageFrom(baseline, [{ field: 'gpu', settled: settledResources(traceOf({ cluster: { kind: 'Cluster' } })) }])).toEqual({ 'nodepool-gpu': ['gpu'] });
  });
});

describe('compareAcross: intent coverage of the node-pool role', () => {
  const ALL: IntentField[] = ['nodeCount', 'minNodeCount', 'maxNodeCount', 'gpu', 'gpuCount'];
  const covering = (provider: string, intent: IntentField[]) =>
    goodSkeleton(provider, 'converge', { resources: { 'nodepool-gpu': { ...goodSkeleton(provider).resources['nodepool-gpu']!, intent } } });

  it('a provider that silently ignores the autoscaling bounds diverges, behavioral; only where the probes ran', () => {
    const skeletons = [covering('aks', ALL), covering('eks', ['nodeCount', 'gpu', 'gpuCount']), covering('gke', ALL), covering('nebius', ALL)];
    const findings = compareAcross({ scenario: 'converge', pools: ['gpu'], ablated: true, skeletons }).filter((finding) => finding.facet === 'intent');
    expect(findings).toEqual([expect.objectContaining({ id: 'div:node-pool:intent:eks', class: 'behavioral', provider: 'eks', consensus: ALL })]);
    expect(compareAcross({ scenario: 'converge', pools: ['gpu'], ablated: false, skeletons }).filter((finding) => finding.facet === 'intent')).toEqual([]);
  });
});
