/**
 * Conventions discovered, then locked. Pure.
 *
 * A *candidate* convention is a facet on which every provider agrees, at least three of them, in every
 * scenario where it is compared. The team locks one it has proven (goldens/conventions.yaml, with a
 * reason); from then on it is enforced like a rule: a provider that differs is a `contract` finding
 * even when most providers differ, since many copies of one mistake must not outvote it.
 */
import { compareText, stableStringify } from '../util/objects.js';
import { MIN_CONVENTION } from './consensus.js';
import type { Facet } from './cross.js';
import type { Finding } from './findings.js';
import { findingId } from './findingId.js';
import { asClause, facetValueInWords } from './summary.js';

/** The facets of one scenario, as `collectFacetValues` gives them. */
export interface ScenarioFacets {
  scenario: string;
  facets: readonly Facet[];
}

export interface LockedConvention {
  facet: string;
  subject: string;
  /** The agreed value in each scenario where the facet was compared when it was locked. */
  values: Record<string, unknown>;
  reason: string;
}

export interface CandidateConvention {
  facet: string;
  subject: string;
  values: Record<string, unknown>;
  providers: string[];
  /** The value in words: one text when every scenario agrees, else each scenario's. */
  words: string;
}

const keyOf = (facet: { facet: string; subject: string }) => `${facet.facet}\u0000${facet.subject}`;

/** The values in words (summarised structurally, steps in words): one text when every scenario agrees, else each scenario's. */
function wordsOf(values: Record<string, unknown>, subject: string, facet: string): string {
  const entries = Object.entries(values);
  const distinct = new Set(entries.map(([, value]) => stableStringify(value)));
  const words = (value: unknown) => facetValueInWords(subject, facet, value);
  return distinct.size === 1 ? words(entries[0]![1]) : entries.map(([scenario, value]) => `${scenario}: ${words(value)}`).join('; ');
}

/** Facets every provider agrees on in every scenario where they are compared, at least MIN_CONVENTION providers. */
export function candidateConventions(perScenario: readonly ScenarioFacets[], providers: readonly string[]): CandidateConvention[] {
  if (providers.length < MIN_CONVENTION) return [];
  const gathered = new Map<string, { facet: string; subject: string; values: Record<string, unknown>; agreed: boolean }>();
  for (const { scenario, facets } of perScenario) {
    for (const facet of facets) {
      const entry = gathered.get(keyOf(facet)) ?? { facet: facet.facet, subject: facet.subject, values: {}, agreed: true };
      const texts = new Set([...facet.values.values()].map((value) => stableStringify(value)));
      if (facet.values.size !== providers.length || texts.size !== 1) entry.agreed = false;
      else entry.values[scenario] = facet.values.values().next().value;
      gathered.set(keyOf(facet), entry);
    }
  }
  return [...gathered.values()]
    .filter((entry) => entry.agreed && Object.keys(entry.values).length > 0)
    .map((entry) => ({ facet: entry.facet, subject: entry.subject, values: entry.values, providers: [...providers].sort(), words: wordsOf(entry.values, entry.subject, entry.facet) }))
    .sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

/**
 * Every provider that differs from a locked convention, one finding per provider naming the scenarios;
 * and one finding for a locked convention that no provider matches any more. A provider that lacks the
 * subject in a scenario where the convention holds differs too.
 */
export function checkLocked(locked: readonly LockedConvention[], perScenario: readonly ScenarioFacets[], providers: readonly string[]): Finding[] {
  const findings: Finding[] = [];
  for (const convention of locked) {
    const differs = new Map<string, string[]>();
    const matched = new Set<string>();
    for (const { scenario, facets } of perScenario) {
      if (!(scenario in convention.values)) continue;
      const expected = stableStringify(convention.values[scenario]);
      const facet = facets.find((candidate) => candidate.facet === convention.facet && candidate.subject === convention.subject);
      for (const provider of providers) {
        const has = facet?.values.has(provider) ?? false;
        if (has && stableStringify(facet!.values.get(provider)) === expected) matched.add(provider);
        else differs.set(provider, [...(differs.get(provider) ?? []), scenario]);
      }
    }
    const label = `${convention.subject} ${convention.facet}`;
    for (const [provider, scenarios] of [...differs].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (matched.size === 0 && providers.length > 1) continue; // reported once below, not blamed on everyone
      findings.push({
        id: findingId('locked', convention.facet, convention.subject, provider),
        type: 'locked',
        class: 'contract',
        provider,
        scenarios: [...scenarios].sort(compareText),
        subject: convention.subject,
        facet: convention.facet,
        message: `${label} differs from the locked convention in ${scenarios.join(', ')}`,
        consensus: convention.values,
        hint: `locked because: ${asClause(convention.reason)}. Make ${provider} follow it (${wordsOf(convention.values, convention.subject, convention.facet)}), or record an exception with a reason in goldens/accepted.yaml (facet ${convention.facet}, subject ${convention.subject}, providers [${provider}]).`,
      });
    }
    if (matched.size === 0 && perScenario.some(({ scenario }) => scenario in convention.values)) {
      findings.push({
        id: findingId('locked', convention.facet, convention.subject),
        type: 'locked',
        class: 'contract',
        subject: convention.subject,
        facet: convention.facet,
        message: `no provider matches the locked convention ${label} any more`,
        consensus: convention.values,
        hint: `locked because: ${asClause(convention.reason)}. Bring the providers back to it, or \`drift unlock ${convention.facet} --subject '${convention.subject}'\` if the team decided otherwise.`,
      });
    }
  }
  return findings;
}
