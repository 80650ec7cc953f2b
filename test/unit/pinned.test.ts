import { describe, expect, it } from 'vitest';
import { applyAccepted, legacyEntries, type AcceptedEntry } from '../../src/compare/acceptance.js';
import { judgeFacets, type Facet } from '../../src/compare/cross.js';
import type { Finding } from '../../src/compare/findings.js';
import { judgePinned, waysOf } from '../../src/compare/pinned.js';

const facet = (values: Record<string, unknown>): Facet => ({ subject: 'requirements', facet: 'requires', class: 'behavioral', values: new Map(Object.entries(values)) });

const TODAY = { aks: ['ClusterProviderConfig'], gke: ['ClusterProviderConfig'], nebius: ['ClusterProviderConfig'], eks: [], vultr: [] };
const entry: AcceptedEntry = {
  facet: 'requires',
  subject: 'requirements',
  ways: waysOf('requirements', 'requires', [{ scenario: 'converge', values: new Map(Object.entries(TODAY)) }]),
  reason: 'EKS and Vultr read nothing from their ProviderConfig',
};

/** What a run reports on the facet: the split or divergences, the pinned findings, then accepted entries applied. */
function judged(values: Record<string, unknown>, options: { established?: string[]; newcomers?: string[] } = {}): Finding[] {
  const facets = [facet(values)];
  const established = new Set(options.established ?? []);
  const across = judgeFacets('converge', facets, established, new Set(options.newcomers ?? []));
  const pinned = judgePinned({ scenario: 'converge', facets, entries: [entry], judged: (provider) => !established.has(provider), file: 'goldens/accepted.yaml' });
  const told = new Set(pinned.map((finding) => finding.provider));
  const kept = across.filter((finding) => finding.type !== 'divergence' || !told.has(finding.provider));
  return applyAccepted([...kept, ...pinned], [entry], { strict: true, file: 'goldens/accepted.yaml' }).filter((finding) => !finding.accepted);
}

describe('accepted splits pin their ways', () => {
  it('records each way with its providers, largest first, deterministically', () => {
    expect(entry.ways).toEqual([
      { providers: ['aks', 'gke', 'nebius'], scenarios: ['converge'], value: ['ClusterProviderConfig'] },
      { providers: ['eks', 'vultr'], scenarios: ['converge'], value: [] },
    ]);
    const shuffled = waysOf('requirements', 'requires', [{ scenario: 'converge', values: new Map(Object.entries(TODAY).reverse()) }]);
    expect(shuffled).toEqual(entry.ways);
  });

  it('accepts the split while every provider holds its way', () => {
    expect(judged(TODAY)).toEqual([]);
  });

  it.each([['eks and vultr', [], 'aks, gke and nebius']])('tells a newcomer that joins the smaller way of %s who holds it, why, and what else it may follow', (holders, value, other) => {
    const findings = judged({ ...TODAY, acme: value }, { established: Object.keys(TODAY), newcomers: ['acme'] });
    expect(findings.map((finding) => finding.id)).toEqual(['div:requirements:requires:acme']);
    const [finding] = findings;
    expect(finding!.message).toContain(`acme joins the accepted way of ${holders}`);
    expect(finding!.hint).toContain(`accepted for them because ${entry.reason}`);
    expect(finding!.hint).toContain("drift accept 'div:requirements:requires:acme'");
    expect(finding!.hint).toContain(`or follow ${other}`);
  });

  it('accepts a newcomer that joins the largest way, saying so, and nobody else', () => {
    const facets = [facet({ ...TODAY, acme: ['ClusterProviderConfig'] })];
    const pinned = judgePinned({ scenario: 'converge', facets, entries: [entry], judged: () => true, file: 'goldens/accepted.yaml' });
    expect(pinned.map((finding) => [finding.id, finding.accepted?.reason])).toEqual([['div:requirements:requires:acme', expect.stringContaining('joins the largest way of entry 1 of goldens/accepted.yaml')]]);
    expect(judged({ ...TODAY, acme: ['ClusterProviderConfig'] }, { established: Object.keys(TODAY), newcomers: ['acme'] })).toEqual([]);
  });

  it('on a tie no way is largest: a newcomer joining either must give its own reason', () => {
    const tied = { aks: ['ClusterProviderConfig'], gke: ['ClusterProviderConfig'], eks: [], vultr: [] };
    const even: AcceptedEntry = { ...entry, ways: waysOf('requirements', 'requires', [{ scenario: 'converge', values: new Map(Object.entries(tied)) }]) };
    for (const value of [[], ['ClusterProviderConfig']]) {
      const facets = [facet({ ...tied, acme: value })];
      const pinned = judgePinned({ scenario: 'converge', facets, entries: [even], judged: () => true, file: 'a.yaml' });
      expect(pinned.map((finding) => [finding.id, finding.accepted])).toEqual([['div:requirements:requires:acme', undefined]]);
    }
  });

  it('tells a newcomer with a way none holds that it is new, naming it', () => {
    const findings = judged({ ...TODAY, acme: ['Secret'] }, { established: Object.keys(TODAY), newcomers: ['acme'] });
    expect(findings.map((finding) => [finding.id, finding.provider])).toEqual([['div:requirements:requires:acme', 'acme']]);
    expect(findings[0]!.message).toContain('a way none of the accepted ways holds ([Secret])');
  });

  it('catches an established provider moving to a third way in a full run, naming it and nobody else', () => {
    const findings = judged({ ...TODAY, gke: ['Secret'] });
    expect(findings.map((finding) => finding.id)).toEqual(['div:requirements:requires:gke']);
    expect(findings[0]!.message).toContain('gke left its accepted way ([ClusterProviderConfig], with aks and nebius)');
  });

  it('catches an established provider moving to the other way, even when that leaves a convention', () => {
    const findings = judged({ ...TODAY, eks: ['ClusterProviderConfig'] });
    expect(findings.map((finding) => finding.id)).toEqual(['div:requirements:requires:eks']);
    expect(findings[0]!.message).toContain('for the way of aks, gke and nebius');
  });

  it('accepts a provider once a way names it', () => {
    const joined: AcceptedEntry = { ...entry, ways: entry.ways!.map((way) => (way.value && (way.value as unknown[]).length === 0 ? { ...way, providers: ['acme', ...way.providers], reasons: { acme: 'reads nothing either' } } : way)) };
    const facets = [facet({ ...TODAY, acme: [] })];
    expect(judgePinned({ scenario: 'converge', facets, entries: [joined], judged: () => true, file: 'a.yaml' })).toEqual([]);
  });

  it('reports an entry that accepts a facet for everyone without ways, until migrated', () => {
    const legacy: AcceptedEntry = { facet: 'requires', subject: 'requirements', reason: 'no ways' };
    const findings = [...applyAccepted(judgeFacets('converge', [facet(TODAY)]), [legacy], { strict: false, file: 'goldens/accepted.yaml' }), ...legacyEntries([legacy], 'goldens/accepted.yaml')];
    const reported = findings.filter((finding) => !finding.accepted);
    expect(legacyEntries([{ ...legacy, providers: ['eks'] }, { id: 'div:x', reason: 'by id' }, entry], 'a.yaml')).toEqual([]);
    expect(reported.map((finding) => finding.id)).toEqual(['accepted-legacy:1']);
    expect(reported[0]!.hint).toContain('drift migrate');
  });
});
