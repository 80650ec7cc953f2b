/** judgeRun: the run's findings from its cells' values — comparison across providers, stand-ins, accepted entries. */
import { describe, expect, it } from 'vitest';
import type { AcceptedEntry } from '../../src/compare/acceptance.js';
import type { Finding } from '../../src/compare/findings.js';
import type { Project } from '../../src/config/types.js';
import type { CellResult } from '../../src/pipeline/cell.js';
import { judgeRun, type JudgeInput } from '../../src/pipeline/judge.js';
import type { Skeleton } from '../../src/skeleton/types.js';
import { goodSkeleton } from '../helpers/fourth.js';

const project = (providers: string[]): Project =>
  ({
    config: {},
    adapters: providers.map((name) => ({ name })),
    scenarios: [{ name: 'converge', ablate: false, xr: { nodePools: [{ name: 'gpu' }] } }],
  }) as unknown as Project;

const cell = (skeleton: Skeleton, findings: Finding[] = []): CellResult => ({
  provider: skeleton.provider,
  scenario: skeleton.scenario,
  trace: { provider: skeleton.provider, scenario: skeleton.scenario, xr: { name: 'demo', namespace: 'ml-team', uid: '' }, steps: [], converged: null, perturbations: [] },
  ms: 0,
  skeleton,
  findings,
});

/** b publishes no cache StorageClass: one divergence from a, c and d. */
const noCache = (provider: string): Skeleton => {
  const skeleton = goodSkeleton(provider);
  const { cache: _dropped, ...status } = skeleton.status;
  return { ...skeleton, status };
};

const judge = (input: Partial<JudgeInput>): Finding[] =>
  judgeRun({
    project: project(['a', 'b', 'c', 'd']),
    cells: [],
    standIns: new Map(),
    gating: false,
    accepted: [],
    acceptedFile: 'goldens/accepted.yaml',
    filtered: false,
    strict: false,
    ...input,
  }).findings;

const ownFinding: Finding = { id: 'rule:x:a:s', type: 'rule', class: 'contract', provider: 'a', scenario: 'converge', subject: 's', message: 'm', hint: 'h' };

describe('judgeRun', () => {
  it("keeps each cell's own findings first, in matrix order, then the divergences across providers", () => {
    const findings = judge({ cells: [cell(goodSkeleton('a'), [ownFinding]), cell(noCache('b')), cell(goodSkeleton('c')), cell(goodSkeleton('d'))] });
    expect(findings.map((f) => f.id)).toEqual(['rule:x:a:s', 'div:status:cache:b']);
  });

  it('compares with stand-ins for providers the run did not render, and blames only rendered ones', () => {
    const standIns = new Map([['converge', [goodSkeleton('a'), goodSkeleton('c'), goodSkeleton('d')]]]);
    expect(judge({ project: project(['b']), cells: [cell(noCache('b'))], standIns }).map((f) => f.id)).toEqual(['div:status:cache:b']);
    // The outlier is a stand-in: nobody rendered is to blame.
    const outlier = new Map([['converge', [noCache('a'), goodSkeleton('c'), goodSkeleton('d')]]]);
    expect(judge({ project: project(['b']), cells: [cell(goodSkeleton('b'))], standIns: outlier })).toEqual([]);
  });

  it('applies accepted entries after the comparison; a stale entry is reported, failing only when strict, and dropped on a filtered run', () => {
    const accepted: AcceptedEntry[] = [{ id: 'div:status:cache:b', reason: 'b has no shared storage' }, { id: 'div:gone', reason: 'old' }];
    const cells = [cell(goodSkeleton('a')), cell(noCache('b')), cell(goodSkeleton('c')), cell(goodSkeleton('d'))];
    const relaxed = judge({ cells, accepted });
    expect(relaxed.map((f) => [f.id, f.accepted?.reason])).toEqual([
      ['div:status:cache:b', 'b has no shared storage'],
      ['accepted-stale:2', 'stale entries fail only under CI; remove the entry: what it accepted is gone'],
    ]);
    expect(judge({ cells, accepted, strict: true }).find((f) => f.id === 'accepted-stale:2')!.accepted).toBeUndefined();
    expect(judge({ cells, accepted, strict: true, filtered: true }).map((f) => f.id)).toEqual(['div:status:cache:b']);
  });

  it('lists the candidates the cells agree on, and judges a locked one by its lock alone, even against a majority', () => {
    const input = { project: project(['a', 'b', 'c', 'd']), standIns: new Map(), gating: false, accepted: [], acceptedFile: 'goldens/accepted.yaml', filtered: false, strict: false };
    const agreed = judgeRun({ ...input, cells: ['a', 'b', 'c', 'd'].map((name) => cell(goodSkeleton(name))) });
    const candidate = agreed.candidates.find((c) => c.facet === 'cache' && c.subject === 'status')!;
    expect(candidate.providers).toEqual(['a', 'b', 'c', 'd']);
    const locked = [{ facet: 'cache', subject: 'status', values: candidate.values, reason: 'caches mount the class by name' }];
    const cells = [cell(noCache('a')), cell(noCache('b')), cell(noCache('d')), cell(goodSkeleton('c'))];
    // The vote would blame c (3 of 4 publish no cache); the lock blames a, b and d, and nothing else is said about the facet.
    expect(judge({ cells }).map((f) => f.id)).toEqual(['div:status:cache:c']);
    expect(judgeRun({ ...input, cells, locked }).findings.map((f) => [f.id, f.class])).toEqual([
      ['locked:cache:status:a', 'contract'],
      ['locked:cache:status:b', 'contract'],
      ['locked:cache:status:d', 'contract'],
    ]);
  });
});
