import { describe, expect, it } from 'vitest';
import type { Adapter, Scenario } from '../../src/config/types.js';
import { fillSpec, intentFields, segments } from '../../src/config/intent.js';

function adapter(spec: Record<string, unknown>, extra: Partial<Adapter> = {}): Adapter {
  return {
    name: 'demo',
    file: '/x/provider.yaml',
    dir: '/x',
    function: { command: ['python3'], cwd: '/x', env: {} },
    xr: { apiVersion: 'example.org/v1', kind: 'Demo', spec, gpus: { L4: { machine: 'g2-standard-8', type: 'nvidia-l4' } }, ignore: {} },
    world: { credentials: [], observe: [], brokenCredentials: {} },
    roles: {},
    inline: {},
    values: { region: 'us-central1' },
    ...extra,
  };
}

function scenario(xr: Partial<Scenario['xr']> = {}): Scenario {
  return {
    name: 's',
    file: '/s.yaml',
    description: 'd',
    xr: { name: 'demo', namespace: 'team', nodePools: [], ...xr },
    world: { credentials: 'present', ready: 'all' },
    then: [],
    ablate: false,
  };
}

describe('segments', () => {
  it('splits text and expressions, keeping braces and quotes inside an expression', () => {
    expect(segments('plain')).toEqual([{ text: 'plain' }]);
    expect(segments('${a}')).toEqual([{ expression: 'a' }]);
    expect(segments('x-${a}-${b}')).toEqual([{ text: 'x-' }, { expression: 'a' }, { text: '-' }, { expression: 'b' }]);
    expect(segments('${{"k": "}"}.k}')).toEqual([{ expression: '{"k": "}"}.k' }]);
  });

  it('rejects an expression that never closes', () => {
    expect(() => segments('${pools.map(p, {"a": 1}')).toThrow(/no closing/);
  });
});

describe('fillSpec', () => {
  const pool = { name: 'gpu', gpu: 'L4', gpuCount: 2, nodeCount: 1, minNodeCount: 0, maxNodeCount: 12, zones: 2 };

  it('maps over pools, builds zone names from a count, clamps and defaults', () => {
    const template = {
      region: '${values.region}',
      nodePools:
        '${pools.map(p, {"name": "np-" + p.name, "machine": gpus[p.gpu].machine, "gpus": p.gpuCount, "size": p.nodeCount,' +
        ' "min": p.?minNodeCount.orValue(0), "max": p.maxNodeCount > 8 ? 8 : p.maxNodeCount,' +
        ' "zones": range(p.zones).map(i, values.region + "-" + "abc".substring(i, i + 1))})}',
    };
    const filled = fillSpec(adapter(template), scenario({ nodePools: [pool] }));
    expect(filled.errors).toEqual([]);
    expect(filled.unplaced).toEqual([]);
    expect(filled.spec).toEqual({
      region: 'us-central1',
      nodePools: [{ name: 'np-gpu', machine: 'g2-standard-8', gpus: 2, size: 1, min: 0, max: 8, zones: ['us-central1-a', 'us-central1-b'] }],
    });
  });

  it('keeps a whole expression\'s type, interpolates text, and leaves nulls out', () => {
    const template = {
      count: '${pools[0].nodeCount}',
      label: '${xr.name}-${xr.namespace}',
      absent: '${pools[0].?zones.orValue(null)}',
      list: ['${null}', 'kept'],
      fixed: 3,
    };
    const filled = fillSpec(adapter(template), scenario({ nodePools: [{ name: 'cpu', nodeCount: 3 }] }));
    expect(filled.spec).toEqual({ count: 3, label: 'demo-team', list: ['kept'], fixed: 3 });
    // pools[0].name is never read: it is reported, not copied.
    expect(filled.unplaced.map((field) => field.name)).toEqual(['pools[0].name']);
  });

  it('accepts zones as a list of names', () => {
    const template = { nodePools: '${pools.map(p, {"name": p.name, "nodeCount": p.nodeCount, "zones": type(p.zones) == int ? range(p.zones).map(i, "z" + string(i)) : p.zones})}' };
    const filled = fillSpec(adapter(template), scenario({ nodePools: [{ name: 'a', nodeCount: 1, zones: ['eu-1b', 'eu-1c'] }, { name: 'b', nodeCount: 1, zones: 2 }] }));
    expect(filled.spec.nodePools).toEqual([
      { name: 'a', nodeCount: 1, zones: ['eu-1b', 'eu-1c'] },
      { name: 'b', nodeCount: 1, zones: ['z0', 'z1'] },
    ]);
    expect(filled.unplaced).toEqual([]);
  });

  it('reports every intent field the template never reads, with where the scenario sets it', () => {
    // The old adapters' failure modes: zones nowhere, credentials kind read but name ignored.
    const template = { kind: '${credentials.kind}', nodePools: '${pools.map(p, {"name": p.name, "nodeCount": p.nodeCount})}' };
    const filled = fillSpec(adapter(template), scenario({ credentials: { kind: 'ProviderConfig', name: 'team-a' }, nodePools: [{ name: 'gpu', nodeCount: 1, zones: 2 }] }));
    expect(filled.unplaced).toEqual([
      { name: 'pools[0].zones', scenarioPath: ['xr', 'nodePools', 0, 'zones'] },
      { name: 'credentials.name', scenarioPath: ['xr', 'credentials', 'name'] },
    ]);
  });

  it('counts a map copied whole as placing every field in it', () => {
    const filled = fillSpec(adapter({ credentials: '${credentials}', nodePools: '${pools}' }), scenario({ credentials: { kind: 'ProviderConfig', name: 'x' }, nodePools: [{ name: 'a', nodeCount: 1, zones: ['z'] }] }));
    expect(filled.unplaced).toEqual([]);
    expect(filled.spec).toEqual({ credentials: { kind: 'ProviderConfig', name: 'x' }, nodePools: [{ name: 'a', nodeCount: 1, zones: ['z'] }] });
  });

  // The CEL library reads a field's value to answer has(), so a presence test counts as a read; the
  // README says so. Only a field the template never mentions is reported.
  it('counts has() as reading the field', () => {
    const filled = fillSpec(adapter({ gpu: '${pools.map(p, has(p.gpu))}', name: '${pools[0].name}', size: '${pools[0].nodeCount}' }), scenario({ nodePools: [{ name: 'a', nodeCount: 1, gpu: 'L4' }] }));
    expect(filled.errors).toEqual([]);
    expect(filled.spec).toEqual({ gpu: [true], name: 'a', size: 1 });
    expect(filled.unplaced).toEqual([]);
  });

  it('reports a CEL error at the template path that holds the expression', () => {
    const filled = fillSpec(adapter({ nodePools: ['${pools.map(p, p.nope)}'] }), scenario({ nodePools: [{ name: 'a', nodeCount: 1 }] }));
    expect(filled.errors).toHaveLength(1);
    expect(filled.errors[0]!.templatePath).toEqual(['xr', 'spec', 'nodePools', 0]);
    expect(filled.errors[0]!.problem).toMatch(/^\$\{pools\.map\(p, p\.nope\)\}: .*nope/);
  });

  it('refuses a list or map interpolated into text', () => {
    const filled = fillSpec(adapter({ name: 'x-${pools}' }), scenario({ nodePools: [{ name: 'a', nodeCount: 1 }] }));
    expect(filled.errors[0]!.problem).toContain('is a list inside text');
  });

  it('lets an adapter name intent fields its cloud has no place for', () => {
    const template = { nodePools: '${pools.map(p, {"name": p.name, "nodeCount": p.nodeCount})}' };
    const pools = [{ name: 'a', nodeCount: 1, zones: 2 }, { name: 'b', nodeCount: 1, zones: 1, gpu: 'L4' }];
    const declared = adapter(template, {});
    declared.xr.ignore = { 'pools[].zones': 'no zones on this cloud' };
    expect(fillSpec(declared, scenario({ nodePools: pools })).unplaced.map((field) => field.name)).toEqual(['pools[1].gpu']);
  });

  it('lists every field a scenario sets as intent', () => {
    const fields = intentFields(scenario({ credentials: { kind: 'ClusterProviderConfig', name: 'default' }, nodePools: [{ name: 'a', nodeCount: 1 }] }));
    expect(fields.map((field) => field.name)).toEqual(['pools[0].name', 'pools[0].nodeCount', 'credentials.kind', 'credentials.name']);
  });
});
