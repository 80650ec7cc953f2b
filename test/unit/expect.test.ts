/** What drift diff -p holds one provider to, as drift expect prints it: the requirements and their status from diff's findings. */
import { describe, expect, it } from 'vitest';
import { judge, requiredOf } from '../../src/compare/consensus.js';
import type { Facet } from '../../src/compare/cross.js';
import type { Finding } from '../../src/compare/findings.js';
import { acrossRequirements, expectLines, lockedRequirements, ruleRequirements } from '../../src/compare/requirements.js';
import { stableStringify } from '../../src/util/objects.js';

const facet = (values: Record<string, unknown>, subject = 'node-pool', name = 'labels'): Facet => ({ subject, facet: name, class: 'behavioral', values: new Map(Object.entries(values)) });
const across = (scenario: string, facets: Facet[], extra: Partial<Parameters<typeof acrossRequirements>[0]> = {}) =>
  acrossRequirements({ scenario, facets, provider: 'new', newcomer: true, rendered: true, locked: [], accepted: [], ...extra });
const divergence = (id: string, extra: Partial<Finding> = {}): Finding => ({ id, type: 'divergence', class: 'behavioral', provider: 'new', subject: 'node-pool', facet: 'labels', message: 'differs', hint: 'fix it', ...extra });

describe('requiredOf agrees with judge', () => {
  it('blames the judged provider exactly where it misses what requiredOf asks, over every small case', () => {
    const values = ['a', 'b', 'c'];
    // Every assignment of up to three values to four established providers (absent included), and the newcomer's value.
    const assignments: Array<Array<string | undefined>> = [[]];
    for (let i = 0; i < 4; i++) assignments.splice(0, assignments.length, ...assignments.flatMap((prefix) => [...values, undefined].map((value) => [...prefix, value])));
    let checked = 0;
    for (const assignment of assignments) {
      for (const mine of values) {
        for (const newcomer of [true, false]) {
          const standIns = new Map(assignment.flatMap((value, index) => (value === undefined ? [] : [[`p${index}`, value] as const])));
          const all = new Map([...standIns, ['new', mine]]);
          const texts = new Map([...all].map(([name, value]) => [name, stableStringify(value)]));
          const verdict = judge(all, texts, new Set(standIns.keys()), newcomer ? new Set(['new']) : new Set());
          const blamed = (verdict.kind === 'convention' || verdict.kind === 'novel') && verdict.outliers.includes('new');
          // Others too few for a convention that all agree: differing from them makes the split.
          const splitByMe = verdict.kind === 'split' && new Set(standIns.values()).size === 1;
          const required = requiredOf(standIns, texts, newcomer);
          const meets =
            required === undefined ||
            (required.kind === 'convention' && required.convention.value === mine) ||
            (required.kind === 'pair' && required.other.value === mine) ||
            (required.kind === 'ways' && required.ways.some((way) => way.value === mine));
          expect({ assignment, mine, newcomer, blamed: blamed || splitByMe }).toEqual({ assignment, mine, newcomer, blamed: !meets });
          checked++;
        }
      }
    }
    expect(checked).toBe(4 ** 4 * 3 * 2);
  });
});

describe('acrossRequirements', () => {
  it("asks for the others' convention, the provider taking no part in the vote", () => {
    expect(across('converge', [facet({ a: 1, b: 1, c: 1, d: 2, new: 2 })])).toEqual([
      { id: 'div:node-pool:labels:new', subject: 'node-pool', facet: 'labels', scenario: 'converge', expect: '1', by: 'convention of a, b, c' },
    ]);
    // Two that agree are too few voters: differing from them is a split, not a divergence.
    expect(across('converge', [facet({ a: 1, b: 1, new: 2 })])).toEqual([
      { id: 'split:node-pool:labels', subject: 'node-pool', facet: 'labels', scenario: 'converge', expect: '1', by: 'only a, b have it besides: a difference is a split' },
    ]);
  });

  it('asks a newcomer for one of the established ways, and nothing of a provider with a golden', () => {
    const split = facet({ a: 1, b: 1, c: 2, d: 2, new: 3 });
    expect(across('converge', [split])[0]).toMatchObject({ id: 'div:node-pool:labels:new', expect: 'one of: 1 (a, b); 2 (c, d)' });
    expect(across('converge', [split], { newcomer: false })).toEqual([]);
  });

  it('asks for the value of the only other provider that has the subject, under the split id', () => {
    expect(across('converge', [facet({ a: 1, new: 2 })])[0]).toMatchObject({ id: 'split:node-pool:labels', expect: '1' });
  });

  it("expects nothing of a rendered provider on a facet it has no value for (absence is presence's), but of one not rendered", () => {
    expect(across('converge', [facet({ a: 1, b: 1, c: 1 })])).toEqual([]);
    expect(across('converge', [facet({ a: 1, b: 1, c: 1 })], { rendered: false })).toHaveLength(1);
  });

  it('leaves a locked facet to its lock', () => {
    const locked = [{ facet: 'labels', subject: 'node-pool', values: { converge: 2 }, reason: 'pools are found by it' }];
    expect(across('converge', [facet({ a: 1, b: 1, c: 1, new: 2 })], { locked })).toEqual([]);
    expect(lockedRequirements(locked, ['converge', 'two-pools'], 'new')).toEqual([
      { id: 'locked:labels:node-pool:new', subject: 'node-pool', facet: 'labels', scenario: 'converge', expect: '2', by: 'locked: pools are found by it' },
    ]);
  });

  it('asks a provider an accepted split pins for its own way, and one it does not name for an entry naming it', () => {
    const accepted = [{ facet: 'labels', subject: 'node-pool', reason: 'clouds differ', ways: [{ providers: ['a', 'b'], scenarios: ['converge'], value: 1 }, { providers: ['c', 'new'], scenarios: ['converge'], value: 2 }] }];
    const values = facet({ a: 1, b: 1, c: 2, new: 2 });
    expect(across('converge', [values], { accepted })[0]).toMatchObject({ expect: '2', by: 'accepted split, entry 1: clouds differ', accepted: 'clouds differ' });
    const stranger = [{ ...accepted[0]!, ways: accepted[0]!.ways.map((way) => ({ ...way, providers: way.providers.filter((p) => p !== 'new') })) }];
    expect(across('converge', [values], { accepted: stranger })[0]?.expect).toBe('an accepted entry naming new, for one of: 1 (a, b); 2 (c)');
  });
});

describe('expectLines', () => {
  const requirements = [...across('converge', [facet({ a: 1, b: 1, c: 1, new: 1 })]), ...across('two-pools', [facet({ a: 1, b: 1, c: 1, new: 2 })])];

  it('gathers one requirement over the scenarios it holds in, under the id without the scenario', () => {
    const [line] = expectLines({ provider: 'new', requirements });
    expect(line).toEqual({ id: 'div:node-pool:labels:new', subject: 'node-pool', facet: 'labels', expect: '1', by: 'convention of a, b, c', scenarios: ['converge', 'two-pools'] });
  });

  it("takes each line's status from diff's findings: not met where one is not accepted, accepted where all are, else met", () => {
    const met = expectLines({ provider: 'new', requirements, findings: [] });
    expect(met.map((line) => line.status)).toEqual(['met']);
    const raised = divergence('div:node-pool:labels:new', { scenarios: ['two-pools'] });
    const [notMet] = expectLines({ provider: 'new', requirements, findings: [raised] });
    expect(notMet).toMatchObject({ status: 'not met', message: 'differs', hint: 'fix it' });
    const [accepted] = expectLines({ provider: 'new', requirements, findings: [{ ...raised, accepted: { reason: 'the cloud forces it' } }] });
    expect(accepted).toMatchObject({ status: 'accepted', accepted: 'the cloud forces it' });
  });

  it("says where a not-met line's cause is, and is not met only in its own scenarios", () => {
    // One line holds in converge, another (a different expectation) in two-pools; one finding, one cause, shows in both.
    const split = [...across('converge', [facet({ a: 1, b: 1, c: 1, new: 2 })]), ...across('two-pools', [facet({ a: 3, b: 3, c: 3, new: 2 })])];
    const raised = { ...divergence('div:node-pool:labels:new', { scenarios: ['converge', 'two-pools'] }), where: ['providers/new/function/composer.py:12', 'a: providers/a/function/composer.py:40'] };
    const lines = expectLines({ provider: 'new', requirements: split, findings: [raised] });
    expect(lines.map((line) => [line.expect, line.scenarios, line.notMetIn, line.where])).toEqual([
      ['1', ['converge'], ['converge'], raised.where],
      ['3', ['two-pools'], ['two-pools'], raised.where],
    ]);
  });

  it("gives a finding no requirement names a line of its own, a violated rule its subject's, and ignores others' findings and goldens", () => {
    const rules = ruleRequirements(['converge'], 'new').filter((requirement) => requirement.facet === 'nothing-dropped');
    const findings: Finding[] = [
      { id: 'rule:nothing-dropped:new:nodepool-gpu', type: 'rule', class: 'contract', provider: 'new', scenarios: ['converge'], subject: 'nodepool-gpu', facet: 'nothing-dropped', message: 'dropped', hint: 'keep it' },
      { id: 'style:source:ruff:new', type: 'style', class: 'stylistic', provider: 'new', subject: 'source', facet: 'ruff', message: 'not formatted', hint: 'ruff format' },
      divergence('div:node-pool:labels:other', { provider: 'other', scenarios: ['converge'] }),
      { id: 'golden-missing:new/converge', type: 'golden', class: 'behavioral', provider: 'new', scenario: 'converge', subject: 'golden', message: 'no golden', hint: 'update' },
    ];
    const lines = expectLines({ provider: 'new', requirements: rules, findings });
    expect(lines.map((line) => [line.id, line.status, line.scenarios])).toEqual([
      ['rule:nothing-dropped:new:nodepool-gpu', 'not met', ['converge']],
      ['style:source:ruff:new', 'not met', []],
    ]);
  });
});

describe('expectLines, findings without a scenario and rules that hold elsewhere', () => {
  it("keeps a rule's own line for the scenarios where nothing violates it", () => {
    const rules = ruleRequirements(['converge', 'two-pools'], 'new').filter((requirement) => requirement.facet === 'nothing-dropped');
    const violation: Finding = { id: 'rule:nothing-dropped:new:nodepool-gpu', type: 'rule', class: 'contract', provider: 'new', scenarios: ['two-pools'], subject: 'nodepool-gpu', facet: 'nothing-dropped', message: 'dropped', hint: 'keep it' };
    const lines = expectLines({ provider: 'new', requirements: rules, findings: [violation] });
    expect(lines.map((line) => [line.id, line.status, line.scenarios])).toEqual([
      ['rule:nothing-dropped:new', 'met', ['converge']],
      ['rule:nothing-dropped:new:nodepool-gpu', 'not met', ['two-pools']],
    ]);
  });

  it('lets a locked finding, which names no scenario, fail its line', () => {
    const locked = [{ facet: 'labels', subject: 'node-pool', values: { converge: 2, 'two-pools': 2 }, reason: 'pools are found by it' }];
    const requirements = lockedRequirements(locked, ['converge', 'two-pools'], 'new');
    const finding: Finding = { id: 'locked:labels:node-pool:new', type: 'locked', class: 'contract', provider: 'new', subject: 'node-pool', facet: 'labels', message: 'differs in two-pools', hint: 'follow it' };
    const lines = expectLines({ provider: 'new', requirements, findings: [finding] });
    expect(lines).toEqual([expect.objectContaining({ id: 'locked:labels:node-pool:new', scenarios: ['converge', 'two-pools'], status: 'not met', message: 'differs in two-pools' })]);
  });
});
