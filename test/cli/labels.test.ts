/**
 * Node labels under a field no list names, through the built CLI: a copy of the GKE function that
 * writes its node labels under `nodeLabelList` renders the same skeleton (its labels found where the
 * pool's own labels sit), so `drift diff -p gke` stays clean with no `labelFields` knob; a copy
 * whose pool really loses the contract's labels is still blamed on node-pool labels.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runDrift } from '../helpers/drift.js';
import { flattened } from '../helpers/consequences.js';
import { copyProject, mutate, replaceExactly } from '../helpers/project.js';

const SLOW = 180_000;
const copies: Array<() => void> = [];
afterAll(() => copies.forEach((remove) => remove()));

const NODE_CONFIG = '        node_config: dict[str, Any] = {"machineType": pool["machineType"], "labels": labels}\n';

async function diffWith(replacement: string) {
  const { dir, remove } = copyProject({ prefix: 'drift-labels-' });
  copies.push(remove);
  mutate(dir, 'gke', 'function/composer.py', (composer) => replaceExactly(composer, NODE_CONFIG, replacement));
  return runDrift(['diff', '--provider', 'gke', '--scenario', 'converge', '--format', 'json'], dir);
}

interface Report {
  findings: Array<{ type: string; provider?: string; subject: string; facet?: string; accepted?: unknown }>;
}
/** What is left unaccepted, as type, subject, facet and provider (ids change shape; these do not). */
const unaccepted = (stdout: string) =>
  (flattened(JSON.parse(stdout) as Parameters<typeof flattened>[0]) as unknown as Report).findings.filter((finding) => !finding.accepted).map((finding) => [finding.type, finding.subject, finding.facet, finding.provider].join(' '));

describe('labels under an unlisted field', () => {
  it('nodeLabelList holding the pool labels reads as labels: no finding at all', async () => {
    const run = await diffWith('        node_config: dict[str, Any] = {"machineType": pool["machineType"], "nodeLabelList": labels}\n');
    expect(unaccepted(run.stdout), run.all).toEqual([]);
    expect(run.exitCode, run.all).toBe(0);
  }, SLOW);

  it('the same field without the contract’s labels is a node-pool labels finding naming gke', async () => {
    const run = await diffWith('        node_config: dict[str, Any] = {"machineType": pool["machineType"], "nodeLabelList": {"pool": "x"}}\n');
    expect(run.exitCode, run.all).toBe(1);
    expect(unaccepted(run.stdout)).toContain('divergence node-pool labels gke');
  }, SLOW);
});
