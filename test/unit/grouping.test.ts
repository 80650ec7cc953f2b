/** One cause is one finding: ids without the scenario, merged after accepted entries were matched per scenario. */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import { factsOfId, legacyIdOf } from '../../src/compare/findingId.js';
import { groupByCause, groupByPlace } from '../../src/compare/grouping.js';
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
    // The scenarios are said once, by `scenarios`: the message does not count them again.
    expect(merged!.message).toBe('node-pool ready differs from the convention');
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

describe('groupByPlace', () => {
  const GATE = 'providers/b/function/composer.py:88';
  const at = (finding: Finding, place: string, cls: Finding['class'] = 'behavioral'): Finding => ({ ...finding, class: cls, where: [place, 'a: providers/a/function/composer.py:90'] });
  const gated = (subject: string, scenario = 'converge'): Finding => ({ ...divergence(scenario), id: `div:${subject}:gated-on:b`, subject, facet: 'gated-on' });
  const rule: Finding = { id: 'rule:nothing-dropped:b:cluster', type: 'rule', class: 'contract', provider: 'b', scenario: 'cluster-lost', subject: 'cluster', facet: 'nothing-dropped', message: 'cluster dropped', hint: 'keep it' };

  it('leaves alone what the provider lacks: its place is where the thing would go, not a decision', () => {
    const missing = (subject: string): Finding => at({ ...divergence('converge', { a: true, b: false }), id: `div:${subject}:presence:b`, subject, facet: 'presence' }, GATE);
    const none: Finding = at({ ...divergence('converge', { a: ['ClusterProviderConfig'], b: [] }), id: 'div:requirements:requires:b', subject: 'requirements', facet: 'requires' }, GATE);
    const findings = [missing('network'), missing('subnet'), none];
    expect(groupByPlace(findings)).toEqual(findings);
  });

  it("makes the findings of one provider at one file:line one cause listing them whole, its class the most serious, its scenarios all of theirs", () => {
    const findings = [at(gated('network'), GATE), at(rule, GATE, 'contract'), at(gated('cluster', 'two-pools'), GATE), at(gated('subnet'), GATE)];
    const [cause, ...rest] = groupByPlace(findings);
    expect(rest).toEqual([]);
    expect(cause).toMatchObject({ id: `cause:b:${GATE}`, type: 'cause', class: 'contract', provider: 'b', scenarios: ['cluster-lost', 'converge', 'two-pools'], where: [GATE, 'a: providers/a/function/composer.py:90'] });
    expect(cause!.consequences).toEqual(expect.arrayContaining(findings));
    expect(cause!.consequences).toHaveLength(4);
    // Contract first, as reports order findings.
    expect(cause!.consequences![0]!.id).toBe('rule:nothing-dropped:b:cluster');
    expect(cause!.message).toBe("4 findings from one place in b's code: rule nothing-dropped of cluster; gated-on of network, subnet, cluster");
    expect(cause!.hint).toContain(`change ${GATE}, which all 4 come from`);
    expect(cause!.hint).toContain(`drift accept 'cause:b:${GATE}'`);
  });

  it('leaves alone a place one finding points at, other providers, other lines, accepted findings and splits', () => {
    const split: Finding = { id: 'split:system-pool:gated-on', type: 'split', class: 'behavioral', scenario: 'converge', subject: 'system-pool', facet: 'gated-on', message: 'm', hint: 'h', where: [GATE] };
    const other = { ...at(gated('network'), GATE), provider: 'c', id: 'div:network:gated-on:c' };
    const accepted = { ...at(gated('subnet'), GATE), accepted: { reason: 'r' } };
    const findings = [at(gated('network'), GATE), at(gated('cluster'), 'providers/b/function/composer.py:89'), other, accepted, split];
    expect(groupByPlace(findings)).toEqual(findings);
  });

  it('is deterministic: the same findings in another order give the same causes', () => {
    const findings = [at(gated('network'), GATE), at(gated('cluster'), GATE), at(gated('subnet'), 'providers/b/function/composer.py:120'), at(gated('node-pool'), 'providers/b/function/composer.py:120')];
    const ids = (list: Finding[]) => list.map((finding) => [finding.id, finding.consequences?.map((one) => one.id)]).sort();
    expect(ids(groupByPlace([...findings].reverse()))).toEqual(ids(groupByPlace(findings)));
    expect(groupByPlace(findings).map((finding) => finding.id)).toEqual([`cause:b:${GATE}`, 'cause:b:providers/b/function/composer.py:120']);
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
