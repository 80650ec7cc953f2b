/**
 * Intent mapping and XRD validation through the built CLI, on a copy of the project: a broken
 * adapter stops drift before any function starts (exit 2), names the file and line, and writes nothing.
 *
 * Runs the build the global set-up made, and needs the Python venv in .venv.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrift } from '../helpers/drift.js';
import { copyProject, hashGoldens, mutate, replaceExactly, type ProjectCopy } from '../helpers/project.js';

describe('an adapter whose XR misses intent or breaks its XRD', () => {
  let copy: ProjectCopy;
  beforeAll(() => {
    copy = copyProject({ prefix: 'drift-intent-' });
  });
  afterAll(() => copy.remove());

  it('leaves a scenario field unplaced: exit 2 with both files and lines, nothing written', async () => {
    const before = hashGoldens(copy.dir);
    // The GKE template stops carrying zones: two-pools sets them, so nothing may run.
    mutate(copy.dir, 'gke', 'provider.yaml', (text) =>
      replaceExactly(text, '        "zones": has(p.zones) ? (type(p.zones) == list ? size(p.zones) : p.zones) : null,\n', ''),
    );
    try {
      const run = await runDrift(['update', '-p', 'gke'], copy.dir);
      expect(run.exitCode).toBe(2);
      const adapter = path.join(copy.dir, 'providers/gke/provider.yaml');
      expect(run.stderr).toContain(`drift: ${adapter}:12:5: scenario scenarios/two-pools.yaml:5:102 sets pools[0].zones, but xr.spec never reads it`);
      expect(run.stdout).toBe('');
      expect(hashGoldens(copy.dir)).toEqual(before);
    } finally {
      mutate(copy.dir, 'gke', 'provider.yaml', (text) =>
        replaceExactly(text, '        "gpu": has(p.gpu)', '        "zones": has(p.zones) ? (type(p.zones) == list ? size(p.zones) : p.zones) : null,\n        "gpu": has(p.gpu)'),
      );
    }
  });

  it('builds an XR the XRD rejects: exit 2 at the adapter line with the XRD line and schema path, nothing written', async () => {
    const before = hashGoldens(copy.dir);
    // A node count above what the EKS XRD allows, in every pool of every scenario.
    mutate(copy.dir, 'eks', 'provider.yaml', (text) => replaceExactly(text, '"nodeCount": p.nodeCount,', '"nodeCount": p.nodeCount - 100,'));
    const run = await runDrift(['diff'], copy.dir);
    expect(run.exitCode).toBe(2);
    const adapter = path.join(copy.dir, 'providers/eks/provider.yaml');
    expect(run.stderr).toMatch(
      new RegExp(
        `^drift: ${adapter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: the XR for scenario scenarios/\\S+ is rejected by its XRD: spec\\.nodePools\\.0\\.nodeCount: must be >= 0 ` +
          `\\(providers/eks/apis/definition\\.yaml:\\d+:\\d+, openAPIV3Schema\\.properties\\.spec\\.properties\\.nodePools\\.items\\.properties\\.nodeCount\\)`,
        'm',
      ),
    );
    expect(hashGoldens(copy.dir)).toEqual(before);
  });
});
