/**
 * The consensus rule over synthetic skeleton sets of 2, 3, 4, 5 and 8 providers: each case blames
 * exactly the provider that differs, or reports one split blaming nobody.
 */
import { describe, expect, it } from 'vitest';
import { groupValues, judge } from '../../src/compare/consensus.js';
import { compareAcross } from '../../src/compare/cross.js';
import type { Finding } from '../../src/compare/findings.js';
import type { ResourceSkeleton, Skeleton } from '../../src/skeleton/types.js';
import { goodSkeleton } from '../helpers/fourth.js';

const across = (skeletons: Skeleton[], established?: string[], newcomers?: string[]): Finding[] =>
  compareAcross({
    scenario: 'converge',
    pools: ['gpu'],
    ablated: false,
    skeletons,
    ...(established ? { established: new Set(established) } : {}),
    ...(newcomers ? { newcomers: new Set(newcomers) } : {}),
  });

const ids = (findings: Finding[]) => findings.map((finding) => finding.id).sort();

function withPool(provider: string, change: Partial<ResourceSkeleton>): Skeleton {
  const base = goodSkeleton(provider);
  return goodSkeleton(provider, 'converge', { resources: { 'nodepool-gpu': { ...base.resources['nodepool-gpu']!, ...change } } });
}

/** One behavioral drift: the GPU pool loses its GPU label. */
const drifted = (provider: string) => withPool(provider, { labels: ['modelplane.ai/pool'] });
/** Another drift of the same facet, to a third value. */
const otherwise = (provider: string) => withPool(provider, { labels: ['team'] });
const noHelm = (provider: string) => goodSkeleton(provider, 'converge', { resources: { 'provider-config-helm': undefined } });

const LABELS_SPLIT = 'split:node-pool:labels';
const blame = (provider: string) => `div:node-pool:labels:${provider}`;

const names = (n: number) => ['aks', 'eks', 'gke', 'linode', 'nebius', 'oci', 'scaleway', 'vultr'].slice(0, n);

describe('a drift in any single provider', () => {
  for (const n of [4, 5, 8]) {
    it(`is blamed on exactly that provider among ${n}, whichever it is (gke included)`, () => {
      for (const provider of names(n)) {
        const skeletons = names(n).map((name) => (name === provider ? drifted(name) : goodSkeleton(name)));
        const findings = across(skeletons);
        expect(ids(findings), provider).toEqual([blame(provider)]);
        expect(findings[0]!.provider).toBe(provider);
        expect(findings[0]!.message).toBe(`node-pool labels differs from the convention of ${n - 1} of ${n} providers (${names(n).filter((p) => p !== provider).join(', ')})`);
      }
    });
  }

  it('is a split among three: two that agree are too few voters to blame the third', () => {
    for (const provider of names(3)) {
      const findings = across(names(3).map((name) => (name === provider ? drifted(name) : goodSkeleton(name))));
      expect(ids(findings), provider).toEqual([LABELS_SPLIT]);
      expect(findings[0]!.provider).toBeUndefined();
    }
  });

  it('is a split with two providers: neither can be told right, so neither is blamed', () => {
    for (const provider of ['eks', 'gke']) {
      const findings = across([provider === 'eks' ? drifted('eks') : goodSkeleton('eks'), provider === 'gke' ? drifted('gke') : goodSkeleton('gke')]);
      expect(ids(findings)).toEqual([LABELS_SPLIT]);
      expect(findings[0]).toMatchObject({ type: 'split', class: 'behavioral' });
      expect(findings[0]!.provider).toBeUndefined();
    }
  });
});

describe('ties and weak majorities are splits', () => {
  it('1-1-1 among three: one split with three groups', () => {
    const findings = across([goodSkeleton('eks'), drifted('gke'), otherwise('nebius')]);
    expect(ids(findings)).toEqual([LABELS_SPLIT]);
    expect(findings[0]!.groups!.map((group) => group.providers)).toEqual([['gke'], ['eks'], ['nebius']].sort((a, b) => {
      const text = (p: string[]) => JSON.stringify(findings[0]!.values![p[0]!]);
      return text(a) < text(b) ? -1 : 1;
    }));
  });

  it('2-2-1 among five: one split, whoever the lone one is', () => {
    const [a, b, c, d, e] = names(5) as [string, string, string, string, string];
    const findings = across([goodSkeleton(a), goodSkeleton(b), drifted(c), drifted(d), otherwise(e)]);
    expect(ids(findings)).toEqual([LABELS_SPLIT]);
    expect(findings[0]!.groups).toHaveLength(3);
    expect(findings[0]!.groups![2]!.providers).toEqual([e]);
    expect(findings[0]!.message).toBe('node-pool labels has no convention: 3 groups of 2-2-1 providers');
  });

  it('3-2 among five is no convention (3/5 < 2/3); 4-1 is', () => {
    const five = names(5);
    expect(ids(across(five.map((p, i) => (i < 2 ? drifted(p) : goodSkeleton(p)))))).toEqual([LABELS_SPLIT]);
    expect(ids(across(five.map((p, i) => (i === 4 ? drifted(p) : goodSkeleton(p)))))).toEqual([blame(five[4]!)]);
  });

  it('6-2 among eight blames both outliers; 5-3 is a split', () => {
    const eight = names(8);
    expect(ids(across(eight.map((p, i) => (i === 1 || i === 6 ? drifted(p) : goodSkeleton(p)))))).toEqual([blame(eight[1]!), blame(eight[6]!)]);
    expect(ids(across(eight.map((p, i) => (i < 3 ? drifted(p) : goodSkeleton(p)))))).toEqual([LABELS_SPLIT]);
  });
});

describe('absence is a value only for presence', () => {
  it('three that gate a resource do not outvote two that compose it: a presence split', () => {
    const five = names(5);
    const findings = across(five.map((p, i) => (i < 3 ? noHelm(p) : goodSkeleton(p))));
    // The kubeconfig readers differ the same 3-2 way; nothing blames the two that compose it.
    expect(ids(findings)).toEqual(['split:kubeconfig:readers', 'split:provider-config-helm:presence']);
    expect(findings.every((finding) => finding.provider === undefined)).toBe(true);
  });

  it('a provider without the subject takes no part in its other facets, nor in their vote', () => {
    // Two of five compose no helm ProviderConfig; of the three that do, one reads another Secret.
    const five = names(5);
    const reads = (provider: string) => goodSkeleton(provider, 'converge', { resources: { 'provider-config-helm': { ...goodSkeleton(provider).resources['provider-config-helm']!, reads: ['{namespace}/other:kubeconfig'] } } });
    const skeletons = [noHelm(five[0]!), noHelm(five[1]!), goodSkeleton(five[2]!), goodSkeleton(five[3]!), reads(five[4]!)];
    const helm = across(skeletons).filter((finding) => finding.subject === 'provider-config-helm');
    // Presence is 3-2 (a split); reads are compared among the three that have it: 2 of 3 agree, too few voters.
    expect(ids(helm)).toEqual(['split:provider-config-helm:presence', 'split:provider-config-helm:reads']);
    expect(helm.find((finding) => finding.facet === 'reads')!.values).toEqual({ [five[2]!]: ['{namespace}/{xr}-kubeconfig:kubeconfig'], [five[3]!]: ['{namespace}/{xr}-kubeconfig:kubeconfig'], [five[4]!]: ['{namespace}/other:kubeconfig'] });
    // One without it, three of the four that have it agree: a convention of three voters.
    const four = [noHelm(five[0]!), goodSkeleton(five[1]!), goodSkeleton(five[2]!), goodSkeleton(five[3]!), reads(five[4]!)];
    const judged = across(four).filter((finding) => finding.subject === 'provider-config-helm');
    expect(ids(judged)).toEqual([`div:provider-config-helm:presence:${five[0]}`, `div:provider-config-helm:reads:${five[4]}`]);
    expect(judged.find((finding) => finding.facet === 'reads')!.message).toBe(`provider-config-helm reads differs from the convention of 3 of 4 providers (${five.slice(1, 4).join(', ')})`);
  });

  it('the one provider that composes what the others do not diverges on presence only', () => {
    const five = names(5);
    const findings = across(five.map((p, i) => (i === 2 ? goodSkeleton(p) : noHelm(p))));
    const helm = findings.filter((finding) => finding.subject === 'provider-config-helm');
    expect(ids(helm)).toEqual([`div:provider-config-helm:presence:${five[2]}`]);
  });
});

describe('with -p P: judged against the established providers', () => {
  it('P diverges from a convention of the established, even when P was the reference', () => {
    const established = ['eks', 'nebius', 'aks', 'vultr'];
    const findings = across([drifted('gke'), ...established.map((p) => goodSkeleton(p))], established);
    expect(ids(findings)).toEqual([blame('gke')]);
    expect(findings[0]!.message).toBe('node-pool labels differs from the convention of 4 of 4 established providers (aks, eks, nebius, vultr)');
  });

  it('with three established that agree, P diverges when it differs; with two or one established, it is a split', () => {
    expect(ids(across([drifted('gke'), goodSkeleton('eks'), goodSkeleton('nebius'), goodSkeleton('aks')], ['aks', 'eks', 'nebius']))).toEqual([blame('gke')]);
    // Two that agree are too few voters: the split a full run reports, never a blame, newcomer or not.
    expect(ids(across([drifted('gke'), goodSkeleton('eks'), goodSkeleton('nebius')], ['eks', 'nebius']))).toEqual([LABELS_SPLIT]);
    expect(ids(across([drifted('gke'), goodSkeleton('eks'), goodSkeleton('nebius')], ['eks', 'nebius'], ['gke']))).toEqual([LABELS_SPLIT]);
    expect(ids(across([drifted('gke'), goodSkeleton('eks')], ['eks']))).toEqual([LABELS_SPLIT]);
    expect(across([goodSkeleton('gke'), goodSkeleton('eks')], ['eks'])).toEqual([]);
  });

  it('a split among the established is not blamed on P, whichever side P takes', () => {
    const established = [goodSkeleton('aks'), goodSkeleton('eks'), drifted('nebius'), drifted('vultr')];
    for (const p of [goodSkeleton('gke'), drifted('gke')]) {
      const findings = across([p, ...established], ['aks', 'eks', 'nebius', 'vultr']);
      expect(ids(findings)).toEqual([LABELS_SPLIT]);
    }
  });

  it('a newcomer P that follows none of the established ways, each held by two or more, is blamed beside the split', () => {
    const established = [goodSkeleton('aks'), goodSkeleton('eks'), drifted('nebius'), drifted('vultr')];
    const stood = ['aks', 'eks', 'nebius', 'vultr'];
    const findings = across([otherwise('gke'), ...established], stood, ['gke']);
    expect(ids(findings)).toEqual([blame('gke'), LABELS_SPLIT]);
    const novel = findings.find((finding) => finding.id === blame('gke'))!;
    expect(novel.provider).toBe('gke');
    expect(novel.message).toBe('node-pool labels follows none of the 2 ways of the 4 established providers');
    expect(novel.ways?.map((way) => way.providers)).toEqual([
      ['aks', 'eks'],
      ['nebius', 'vultr'],
    ]);
    expect(novel.hint).toContain('aks, eks: ');
    expect(novel.hint).toContain('nebius, vultr: ');
    // P with a golden of its own is judged on its changes by that golden: the split only.
    expect(ids(across([otherwise('gke'), ...established], stood))).toEqual([LABELS_SPLIT]);
    // A way held by one established provider is no way to follow: 2-1-1 among the established stays a split.
    const lopsided = [goodSkeleton('aks'), goodSkeleton('eks'), drifted('nebius'), otherwise('vultr')];
    expect(ids(across([withPool('gke', { labels: ['other'] }), ...lopsided], stood, ['gke']))).toEqual([LABELS_SPLIT]);
  });

  it('where P completes a convention the established lacked, nothing is reported: the outlier is established', () => {
    const stood = ['aks', 'eks', 'nebius'];
    expect(across([goodSkeleton('gke'), goodSkeleton('aks'), goodSkeleton('eks'), drifted('nebius')], stood)).toEqual([]);
    // …and P that sides with neither makes the 2-1-1 split a full run reports.
    expect(ids(across([otherwise('gke'), goodSkeleton('aks'), goodSkeleton('eks'), drifted('nebius')], stood))).toEqual([LABELS_SPLIT]);
    // P joining one of three makes 2 of 3 in a full run: too few voters, so a split there and here.
    expect(ids(across([goodSkeleton('gke'), goodSkeleton('eks'), drifted('nebius')], ['eks', 'nebius']))).toEqual([LABELS_SPLIT]);
  });

  it('never blames an established provider, and P that follows the convention is clean', () => {
    const established = ['aks', 'eks', 'nebius', 'vultr'];
    const skeletons = [goodSkeleton('gke'), goodSkeleton('aks'), goodSkeleton('eks'), goodSkeleton('nebius'), drifted('vultr')];
    expect(across(skeletons, established)).toEqual([]);
    // The same set rendered in full blames vultr, the one that differs.
    expect(ids(across(skeletons))).toEqual([blame('vultr')]);
  });

  it('with two established that agree, several judged at once are held to the convention a full run finds', () => {
    // 4 of 5 in a full run: the judged outlier is blamed, as a full run would blame it.
    const skeletons = [drifted('gke'), goodSkeleton('nebius'), goodSkeleton('vultr'), goodSkeleton('aks'), goodSkeleton('eks')];
    const findings = across(skeletons, ['aks', 'eks']);
    expect(ids(findings)).toEqual([blame('gke')]);
    expect(ids(across(skeletons))).toEqual([blame('gke')]);
    // An established outlier of that convention is never blamed: nothing is reported.
    expect(across([goodSkeleton('gke'), goodSkeleton('nebius'), goodSkeleton('vultr'), goodSkeleton('aks'), drifted('eks')], ['aks', 'eks'])).toEqual([]);
  });

  it('judges several new providers each against the established', () => {
    const established = ['aks', 'eks', 'nebius'];
    const findings = across([drifted('gke'), goodSkeleton('vultr'), ...established.map((p) => goodSkeleton(p))], established);
    expect(ids(findings)).toEqual([blame('gke')]);
  });
});

describe('judge', () => {
  const values = (entries: Record<string, unknown>) => new Map(Object.entries(entries));
  const texts = (map: Map<string, unknown>) => new Map([...map].map(([k, v]) => [k, JSON.stringify(v)]));

  it('needs at least three voters and two thirds of the compared for a convention', () => {
    const two = values({ a: 1, b: 2 });
    expect(judge(two, texts(two)).kind).toBe('split');
    const three = values({ a: 1, b: 1, c: 2 });
    expect(judge(three, texts(three)).kind).toBe('split');
    const four = values({ a: 1, b: 1, c: 2, d: 3 });
    expect(judge(four, texts(four)).kind).toBe('split');
    const voters = values({ a: 1, b: 1, c: 1, d: 2 });
    expect(judge(voters, texts(voters))).toMatchObject({ kind: 'convention', outliers: ['d'], compared: 4 });
    const third = values({ a: 1, b: 1, c: 1, d: 2, e: 3 });
    expect(judge(third, texts(third)).kind).toBe('split');
  });

  it('orders groups by size, then by value text, never by provider name', () => {
    const map = values({ zed: 'b', abe: 'a', kim: 'a' });
    expect(groupValues(map, texts(map)).map((group) => group.providers)).toEqual([['abe', 'kim'], ['zed']]);
  });

  it('reports agreement as nothing, and one provider as nothing', () => {
    const same = values({ a: 1, b: 1 });
    expect(judge(same, texts(same)).kind).toBe('agreed');
    const one = values({ a: 1 });
    expect(judge(one, texts(one)).kind).toBe('agreed');
  });
});
