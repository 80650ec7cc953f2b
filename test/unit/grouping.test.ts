/** One cause is one finding: ids without the scenario, merged after accepted entries were matched per scenario. */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import { factsOfId, legacyIdOf } from '../../src/compare/findingId.js';
import { groupByCause } from '../../src/compare/grouping.js';
import type { Project } from '../../src/config/types.js';
import type { CellResult } from '../../src/pipeline/cell.js';
import { judgeRun } from '../../src/pipeline/judge.js';
import type { Skeleton } from '../../src/skeleton/types.js';
import { goodSkeleton } from '../helpers/fourth.js';

const divergence = (scenario: string, values: Record<string, unknown> = { a: 1, b: 2 }): Finding => ({
  id: 'div:node-pool:ready:b',
  type: 'divergence',
  class: 'behavioral',
  provider: 'b',
  scenario,
  subject: 'node-pool',
  facet: 'ready',
  message: 'node-pool ready differs from the convention',
  values,
  hint: 'make b follow it',
});

describe('groupByCause', () => {
  it('merges one id over several scenarios into one finding listing them, sorted, from the first scenario', () => {
    const [merged, ...rest] = groupByCause([divergence('two-pools', { a: 1, b: 3 }), divergence('converge')]);
    expect(rest).toEqual([]);
    expect(merged).toMatchObject({ id: 'div:node-pool:ready:b', scenarios: ['converge', 'two-pools'], values: { a: 1, b: 2 } });
    expect(merged!.scenario).toBeUndefined();
    expect(merged!.message).toBe('node-pool ready differs from the convention (in 2 scenarios)');
  });

  it('never merges an accepted finding with an unaccepted one, nor two accepted for different reasons', () => {
    const accepted = (scenario: string, reason: string): Finding => ({ ...divergence(scenario), accepted: { reason } });
    const grouped = groupByCause([divergence('converge'), accepted('two-pools', 'pools'), accepted('never-ready', 'ready'), accepted('cluster-lost', 'pools')]);
    expect(grouped.map((finding) => [finding.scenarios, finding.accepted?.reason])).toEqual([
      [['converge'], undefined],
      [['cluster-lost', 'two-pools'], 'pools'],
      [['never-ready'], 'ready'],
    ]);
  });

  it('leaves findings of other types, and findings without a scenario, as they are', () => {
    const golden: Finding = { id: 'golden:b/converge', type: 'golden', class: 'behavioral', provider: 'b', scenario: 'converge', subject: 'golden', message: 'm', hint: 'h' };
    const style: Finding = { id: 'style:x:y:b', type: 'style', class: 'stylistic', provider: 'b', subject: 'x', message: 'm', hint: 'h' };
    expect(groupByCause([golden, style, golden])).toEqual([golden, style, golden]);
  });
});

describe('finding ids', () => {
  it('read back subject, facet and provider from ids that name no scenario, a subject with a colon included', () => {
    expect(factsOfId('div:then[0] delete: cluster:outcome:eks')).toEqual({ id: 'div:then[0] delete: cluster:outcome:eks', type: 'divergence', subject: 'then[0] delete: cluster', facet: 'outcome', provider: 'eks' });
    expect(factsOfId('split:status:identity-entry')).toMatchObject({ type: 'split', subject: 'status', facet: 'identity-entry' });
    expect(factsOfId('rule:nothing-dropped:vultr:nodepool-gpu')).toMatchObject({ type: 'rule', facet: 'nothing-dropped', provider: 'vultr', subject: 'nodepool-gpu' });
    expect(factsOfId('rule:nothing-dropped:vultr/cluster-lost:nodepool-gpu')).toBeUndefined();
  });

  it('rewrite the ids of an older drift, telling the scenario by the project’s names', () => {
    const scenarios = new Set(['converge', 'cluster-lost']);
    expect(legacyIdOf('div:converge:node-pool:ready:eks', scenarios)).toEqual({ id: 'div:node-pool:ready:eks', scenario: 'converge' });
    expect(legacyIdOf('split:cluster-lost:status:fields', scenarios)).toEqual({ id: 'split:status:fields', scenario: 'cluster-lost' });
    expect(legacyIdOf('rule:nothing-dropped:vultr/cluster-lost:nodepool-gpu', scenarios)).toEqual({ id: 'rule:nothing-dropped:vultr:nodepool-gpu', scenario: 'cluster-lost' });
    // Already current: its first part is no scenario.
    expect(legacyIdOf('div:node-pool:ready:eks', scenarios)).toBeUndefined();
    expect(legacyIdOf('split:status:fields', scenarios)).toBeUndefined();
  });
});

describe('judgeRun over two scenarios', () => {
  const scenarios = ['converge', 'two-pools'];
  const project = { config: {}, adapters: ['a', 'b', 'c', 'd'].map((name) => ({ name })), scenarios: scenarios.map((name) => ({ name, ablate: false, xr: { nodePools: [{ name: 'gpu' }] } })) } as unknown as Project;
  const noCache = (scenario: string): Skeleton => {
    const skeleton = goodSkeleton('b', scenario);
    const { cache: _dropped, ...status } = skeleton.status;
    return { ...skeleton, status };
  };
  const cell = (skeleton: Skeleton): CellResult => ({
    provider: skeleton.provider,
    scenario: skeleton.scenario,
    trace: { provider: skeleton.provider, scenario: skeleton.scenario, xr: { name: 'demo', namespace: 'ml-team', uid: '' }, steps: [], converged: null, perturbations: [] },
    ms: 0,
    skeleton,
    findings: [],
  });
  const cells = scenarios.flatMap((scenario) => [cell(goodSkeleton('a', scenario)), cell(noCache(scenario)), cell(goodSkeleton('c', scenario)), cell(goodSkeleton('d', scenario))]);
  const judge = (accepted: Array<{ id: string; scenario?: string; reason: string }>) =>
    judgeRun({ project, cells, standIns: new Map(), gating: false, accepted, acceptedFile: 'goldens/accepted.yaml', filtered: false, strict: false }).findings;

  it('gives one finding for one cause, listing both scenarios', () => {
    expect(judge([]).map((finding) => [finding.id, finding.scenarios])).toEqual([['div:status:cache:b', ['converge', 'two-pools']]]);
  });

  it('an entry naming a scenario accepts the cause there only: the other scenario stays a finding of its own', () => {
    const findings = judge([{ id: 'div:status:cache:b', scenario: 'two-pools', reason: 'only with two pools' }]);
    expect(findings.map((finding) => [finding.id, finding.scenarios, finding.accepted?.reason])).toEqual([
      ['div:status:cache:b', ['converge'], undefined],
      ['div:status:cache:b', ['two-pools'], 'only with two pools'],
    ]);
  });
});
