/** goldens/accepted.yaml entries against findings: each field an entry names narrows what it accepts. */
import { describe, expect, it } from 'vitest';
import { applyAccepted, matches, type AcceptedEntry } from '../../src/compare/acceptance.js';
import type { Finding } from '../../src/compare/findings.js';

function divergence(scenario: string, provider = 'eks', subject = 'node-pool.key'): Finding {
  return {
    id: `div:${scenario}:${subject}:${provider}`,
    type: 'divergence',
    class: 'stylistic',
    provider,
    scenario,
    subject,
    facet: 'key',
    message: `${provider} names its node pools differently`,
    hint: 'align the key, or accept it',
  };
}

const options = { strict: true, file: 'goldens/accepted.yaml' };

describe('accepted entries', () => {
  it('an entry that names a scenario accepts that scenario only', () => {
    const entry: AcceptedEntry = { facet: 'key', scenario: 'gpu-pool', reason: 'EKS calls them node groups' };
    expect(matches(entry, divergence('gpu-pool'))).toBe(true);
    expect(matches(entry, divergence('converge'))).toBe(false);

    const out = applyAccepted([divergence('gpu-pool'), divergence('converge')], [entry], options);
    expect(out.map((finding) => [finding.scenario, finding.accepted?.reason])).toEqual([
      ['gpu-pool', 'EKS calls them node groups'],
      ['converge', undefined],
    ]);
  });

  it('an entry for a scenario that no longer diverges is stale, though the same facet diverges elsewhere', () => {
    const entry: AcceptedEntry = { facet: 'key', scenario: 'gpu-pool', reason: 'EKS calls them node groups' };
    const out = applyAccepted([divergence('converge')], [entry], options);
    expect(out.map((finding) => finding.type)).toEqual(['divergence', 'accepted-stale']);
    expect(out[0]!.accepted).toBeUndefined();
    expect(out[1]!.message).toBe('entry 1 of goldens/accepted.yaml (facet key, scenario gpu-pool) matches no finding any more');
  });

  it('an entry without a scenario accepts the facet in every scenario', () => {
    const entry: AcceptedEntry = { facet: 'key', reason: 'EKS calls them node groups' };
    expect(matches(entry, divergence('gpu-pool'))).toBe(true);
    expect(matches(entry, divergence('converge'))).toBe(true);
  });

  it('subject and providers narrow an entry the same way', () => {
    const entry: AcceptedEntry = { facet: 'key', subject: 'node-pool.key', providers: ['eks'], reason: 'EKS calls them node groups' };
    expect(matches(entry, divergence('converge', 'eks'))).toBe(true);
    expect(matches(entry, divergence('converge', 'gke'))).toBe(false);
    expect(matches(entry, divergence('converge', 'eks', 'system-pool.key'))).toBe(false);
    expect(matches(entry, { ...divergence('converge'), provider: undefined })).toBe(false);
  });

  it('a new way a newcomer brings is accepted only by an entry that names the provider, not by one for the whole facet', () => {
    const novel: Finding = { ...divergence('converge', 'gke'), ways: [{ value: 'a', providers: ['aks', 'eks'] }, { value: 'b', providers: ['nebius', 'vultr'] }] };
    expect(matches({ facet: 'key', scenario: 'converge', reason: 'the providers split on it' }, novel)).toBe(false);
    expect(matches({ facet: 'key', scenario: 'converge', providers: ['gke'], reason: 'GKE does it its own way' }, novel)).toBe(true);
    expect(matches({ id: novel.id, reason: 'GKE does it its own way' }, novel)).toBe(true);
  });

  it('an entry with an id accepts that finding alone, whatever else it names', () => {
    const finding = divergence('converge');
    expect(matches({ id: finding.id, facet: 'other', reason: 'r' }, finding)).toBe(true);
    expect(matches({ id: `${finding.id}-not`, reason: 'r' }, finding)).toBe(false);
  });

  it('golden changes and errors are never accepted; stale entries fail only when strict', () => {
    const golden: Finding = { ...divergence('converge'), id: 'golden:eks/converge', type: 'golden' };
    const entry: AcceptedEntry = { facet: 'key', reason: 'r' };
    const strict = applyAccepted([golden], [entry], options);
    expect(strict[0]!.accepted).toBeUndefined();
    expect(strict[1]).toMatchObject({ type: 'accepted-stale' });
    expect(strict[1]!.accepted).toBeUndefined();
    expect(applyAccepted([golden], [entry], { ...options, strict: false })[1]!.accepted).toEqual({ reason: 'stale entries fail only under CI; remove the entry: what it accepted is gone' });
  });
});
