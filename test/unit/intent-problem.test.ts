/**
 * An XR that fails to build at run time (drift's own intent probe of a scenario, which loading
 * never mapped) is reported at its provider.yaml line:column, naming the probe and what it changed,
 * never as "the XR for scenario converge is invalid" with the whole expression and no line.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probesFor } from '../../src/compare/intentCoverage.js';
import { loadAdapter, loadScenario } from '../../src/config/load.js';
import { buildXR } from '../../src/world/xr.js';
import { REPO, tempDir, writeFiles } from '../helpers/project.js';

const temp = tempDir('drift-intent-problem-');
afterAll(() => temp.remove());

// The count picks the machine from a table that only knows one GPU: fine for the scenario's count, not for the probe's.
const PROVIDER = `name: counted
function:
  command: [python3, -m, function.main, --insecure, --address, "{address}"]
xr:
  apiVersion: example.org/v1
  kind: Demo
  spec:
    nodePools: |-
      \${pools.map(p, {"name": p.name, "nodeCount": p.nodeCount, "minNodeCount": p.?minNodeCount.orValue(null), "maxNodeCount": p.?maxNodeCount.orValue(null), "gpu": p.gpu,
        "machine": machines[string(p.gpuCount)]})}
  gpus:
    L4: {type: nvidia-l4}
    H100: {type: nvidia-h100}
values: {}
`;

describe('a template that fails only on a probe', () => {
  it('names provider.yaml line:column, the probe and the value it changed, and the scenario it came from', () => {
    const { 'provider.yaml': file } = writeFiles(temp.dir, { 'provider.yaml': PROVIDER.replace('machines[string(p.gpuCount)]', '{"1": "g2-standard-8"}[string(p.gpuCount)]') });
    const adapter = loadAdapter(file!);
    const scenario = loadScenario(path.join(REPO, 'scenarios/converge.yaml'));
    // The scenario itself maps: loading would have said otherwise.
    expect(() => buildXR(adapter, scenario)).not.toThrow();
    const probe = probesFor(adapter, scenario).find((candidate) => candidate.field === 'gpuCount')!;
    const line = PROVIDER.split('\n').findIndex((text) => text.includes('nodePools: |-')) + 1;
    let message = '';
    try {
      buildXR(adapter, probe.scenario);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(new RegExp(`^${file!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${line}:\\d+: xr template, for drift's gpuCount probe \\(pools\\[0\\]\\.gpuCount = 2\\) of scenario converge: `));
    expect(message).toMatch(/: No such key: 2$/);
    // The expression is quoted short, on one line: line:column says where the rest is.
    expect(message).not.toContain('maxNodeCount');
    expect(message).not.toContain('\n');
  });
});
