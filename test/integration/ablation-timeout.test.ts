/**
 * An ablation that runs into its call deadline: the cell reports the error, and its gates are
 * unknown, not empty. So neither the comparison across providers (no `gated-on` divergence read from
 * the absence) nor its golden (no "gatedOn removed") says anything more. A real function process
 * (test/fixtures/ablation-hang) that hangs only on requests of gating ablations (its network withheld from Ready).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProject, selectProject } from '../../src/config/load.js';
import { compareAcross } from '../../src/compare/cross.js';
import { compareGolden } from '../../src/compare/golden.js';
import type { CellResult } from '../../src/pipeline/cell.js';
import { runProject } from '../../src/pipeline/run.js';
import { toCanonicalYaml } from '../../src/skeleton/canonical.js';
import type { Skeleton } from '../../src/skeleton/types.js';
import { parse as parseYaml } from 'yaml';
import { REPO, tempProject } from '../helpers/project.js';

const temp = tempProject({
  providers: path.join(REPO, 'test/fixtures/ablation-hang/provider.yaml'),
  scenarios: path.join(REPO, 'scenarios/converge.yaml'),
  timeouts: { startMs: 20_000, callMs: 1500 },
});
let cell: CellResult;

beforeAll(async () => {
  const project = selectProject(await loadProject(temp.configFile));
  const run = await runProject(project, { determinism: false });
  cell = run.cells[0]!;
}, 60_000);
afterAll(() => temp.remove());

/** The same cell as another provider whose ablations all answered: its cluster is gated on the network. */
function analysed(provider: string): Skeleton {
  const { unknown: _unknown, ...rest } = structuredClone(cell.skeleton);
  rest.resources.cluster!.gatedOn = ['network.exists'];
  return { ...rest, provider };
}

describe('an ablation over its deadline', () => {
  it('is one error finding naming the ablation, and the cell publishes no gates but marks them unknown', () => {
    const errors = cell.findings.filter((finding) => finding.type === 'error');
    // Withholding the credentials leaves the network unready too: two ablations, each its own error.
    expect(errors.map((e) => e.subject)).toEqual(['ablation credentials', 'ablation network.ready']);
    for (const error of errors) expect(error.message).toMatch(/deadline|timed out/i);
    expect(cell.gates).toBeUndefined();
    expect(cell.skeleton.unknown).toEqual(['gated-on']);
    expect(cell.skeleton.resources.cluster!.gatedOn).toBeUndefined();
  });

  it('takes no part in gated-on across providers; the same absence without the mark would be a divergence', () => {
    const others = ['a', 'b', 'c'].map(analysed);
    const across = (skeleton: Skeleton) => compareAcross({ scenario: 'converge', skeletons: [skeleton, ...others], pools: ['gpu'], ablated: true });
    expect(across(cell.skeleton).filter((finding) => finding.facet === 'gated-on')).toEqual([]);
    const { unknown: _unknown, ...unmarked } = cell.skeleton;
    const spurious = across(unmarked).filter((finding) => finding.facet === 'gated-on');
    expect(spurious.map((finding) => finding.provider)).toEqual(['ablation-hang']);
  });

  it('leaves its golden unchanged where only the unknown gates differ, and still shows any other change', () => {
    const golden = toCanonicalYaml({ ...analysed('ablation-hang') });
    const parse = (text: string) => ({ ok: true as const, skeleton: parseYaml(text) as Skeleton });
    expect(compareGolden({ provider: 'ablation-hang', scenario: 'converge', golden, skeleton: cell.skeleton, parse })).toEqual([]);
    const changed = structuredClone(cell.skeleton);
    changed.resources.cluster!.ready = null;
    const findings = compareGolden({ provider: 'ablation-hang', scenario: 'converge', golden, skeleton: changed, parse });
    expect(findings.map((finding) => finding.id)).toEqual(['golden:ablation-hang/converge:resources.cluster']);
    expect(findings[0]!.diff).not.toContain('gatedOn');
  });
});
