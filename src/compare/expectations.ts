/**
 * What the other providers' conventions and the locked conventions require of one provider, per
 * scenario, subject and facet, and whether it meets each. Pure. The provider takes no part in the vote,
 * as with `drift diff -p`; an accepted entry that covers its difference makes the line `accepted`, as
 * `drift diff` would list the finding under accepted rather than fail on it.
 */
import { stableStringify } from '../util/objects.js';
import { matches, type AcceptedEntry } from './acceptance.js';
import { conventionAmong } from './consensus.js';
import type { Finding } from './findings.js';
import type { LockedConvention, ScenarioFacets } from './locked.js';

export interface Expectation {
  scenario: string;
  subject: string;
  facet: string;
  /** The required value's canonical text. */
  expect: string;
  /** `convention of a, b, c` or `locked: <reason>`. */
  by: string;
  /** Absent when the provider was not rendered. */
  status?: 'met' | 'not met' | 'accepted';
  /** The reason of the accepted entry that covers the provider's difference here, unless it meets the line. */
  accepted?: string;
}

/** The finding drift diff would raise if the provider differed here: what an accepted entry is matched against. */
function wouldRaise(provider: string, scenario: string, subject: string, facet: string, locked: boolean): Finding {
  return locked
    ? { id: `locked:${facet}:${subject}:${provider}`, type: 'locked', class: 'contract', provider, subject, facet, message: '', hint: '' }
    : { id: `div:${scenario}:${subject}:${facet}:${provider}`, type: 'divergence', class: 'behavioral', provider, scenario, subject, facet, message: '', hint: '' };
}

export function expectationsFor(
  provider: string,
  perScenario: readonly ScenarioFacets[],
  locked: readonly LockedConvention[],
  rendered: boolean,
  accepted: readonly AcceptedEntry[] = [],
): Expectation[] {
  const out: Expectation[] = [];
  for (const { scenario, facets } of perScenario) {
    for (const facet of facets) {
      const lock = locked.find((convention) => convention.facet === facet.facet && convention.subject === facet.subject && scenario in convention.values);
      const others = new Map([...facet.values].filter(([name]) => name !== provider));
      let expect: string | undefined;
      let by: string;
      if (lock) {
        expect = stableStringify(lock.values[scenario]);
        by = `locked: ${lock.reason}`;
      } else {
        const convention = conventionAmong(others, new Map([...others].map(([name, value]) => [name, stableStringify(value)])));
        expect = convention?.text;
        by = `convention of ${convention?.providers.join(', ')}`;
      }
      if (expect === undefined) continue;
      // drift diff compares a value only among the providers that have it (absence is presence's):
      // a rendered provider without the subject, or without a facet only some providers have
      // (requirements, identity-shape), is expected nothing there.
      if (rendered && !facet.values.has(provider)) continue;
      const finding = wouldRaise(provider, scenario, facet.subject, facet.facet, lock !== undefined);
      const entry = accepted.find((candidate) => matches(candidate, finding));
      const mine = facet.values.has(provider) ? stableStringify(facet.values.get(provider)) : undefined;
      const status = mine === expect ? ('met' as const) : entry ? ('accepted' as const) : ('not met' as const);
      // The reason only where it explains something: a provider that meets the line needs no exception.
      const reason = entry && (!rendered || status === 'accepted') ? { accepted: entry.reason } : {};
      out.push({ scenario, subject: facet.subject, facet: facet.facet, expect, by, ...(rendered ? { status } : {}), ...reason });
    }
  }
  return out;
}
