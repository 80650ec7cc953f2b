/**
 * Accepted splits pin their ways. An entry of goldens/accepted.yaml that accepts a split for a whole
 * facet records, for each scenario it was accepted in, each way the providers took (its value, or a
 * fingerprint with a summary when the value is long) and the providers that hold it. Then:
 *   - a provider named in a way that now has another value has *left* its way;
 *   - a provider named nowhere that holds one of the ways has *joined* it (a newcomer): the others
 *     were accepted with a reason that need not hold for it, unless it joined the largest way (more
 *     providers than any other; on a tie none is), which needs no cloud-specific reason: accepted;
 *   - a provider named nowhere with a value no way holds brings a way that was not there.
 * Each is a finding naming that provider, which the entry does not accept; everything else the entry
 * covers (the split itself, a divergence of a provider holding its way) it accepts. Pure.
 */
import { createHash } from 'node:crypto';
import { compareText, stableStringify } from '../util/objects.js';
import type { AcceptedEntry, PinnedWay } from './acceptance.js';
import { blamed, type Facet } from './cross.js';
import type { Finding } from './findings.js';
import { divergenceId } from './findingId.js';
import { asClause, facetValueInWords } from './summary.js';

/** Values longer than this (canonical text) are pinned by fingerprint, with a summary to read. */
const INLINE_VALUE = 160;

export const fingerprintOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

/** Whether `way` holds the value whose canonical text is `text`. */
export function wayHolds(way: PinnedWay, text: string): boolean {
  return way.value !== undefined || way.fingerprint === undefined ? stableStringify(way.value ?? null) === text : way.fingerprint === fingerprintOf(text);
}

/** The scenarios whose ways an entry pins. */
export const pinnedScenarios = (entry: AcceptedEntry) => [...new Set((entry.ways ?? []).flatMap((way) => way.scenarios))].sort(compareText);

/** Whether a pinned entry speaks about this facet instance at all. */
export function pins(entry: AcceptedEntry, scenario: string, subject: string, facet: string): boolean {
  return entry.ways !== undefined && entry.facet === facet && (entry.subject === undefined || entry.subject === subject) && (entry.scenario === undefined || entry.scenario === scenario) && pinnedScenarios(entry).includes(scenario);
}

/** The ways of an entry in one scenario. */
export const waysIn = (entry: AcceptedEntry, scenario: string) => (entry.ways ?? []).filter((way) => way.scenarios.includes(scenario));

/**
 * The ways a facet's providers hold over the given instances (scenario → provider → value), one way per
 * value and set of providers, listing the scenarios it holds in. Deterministic.
 */
export function waysOf(subject: string, facet: string, instances: ReadonlyArray<{ scenario: string; values: ReadonlyMap<string, unknown> }>): PinnedWay[] {
  const ways = new Map<string, PinnedWay>();
  for (const { scenario, values } of instances) {
    const groups = new Map<string, { value: unknown; providers: string[] }>();
    for (const [provider, value] of values) {
      const text = stableStringify(value);
      const group = groups.get(text) ?? { value, providers: [] };
      group.providers.push(provider);
      groups.set(text, group);
    }
    for (const [text, group] of groups) {
      const providers = group.providers.sort(compareText);
      const key = `${providers.join(',')}\u0000${text}`;
      const way = ways.get(key) ?? {
        providers,
        scenarios: [],
        ...(text.length <= INLINE_VALUE ? { value: group.value } : { fingerprint: fingerprintOf(text), summary: facetValueInWords(subject, facet, group.value) }),
      };
      way.scenarios.push(scenario);
      ways.set(key, way);
    }
  }
  return [...ways.values()]
    .map((way) => ({ ...way, scenarios: [...new Set(way.scenarios)].sort(compareText) }))
    .sort((a, b) => b.providers.length - a.providers.length || compareText(a.providers.join(','), b.providers.join(',')) || compareText(stableStringify(a.value ?? a.fingerprint), stableStringify(b.value ?? b.fingerprint)));
}

/** A way's value in words: its summary, or its value read as the facet's. */
export const wayInWords = (way: PinnedWay, subject: string, facet: string) => way.summary ?? facetValueInWords(subject, facet, way.value ?? null);

const label = (facet: Facet) => (facet.subject === facet.facet ? facet.subject : `${facet.subject} ${facet.facet}`);
const names = (providers: readonly string[]) => (providers.length <= 1 ? providers.join('') : `${providers.slice(0, -1).join(', ')} and ${providers.at(-1)}`);

/** Why a way was accepted for the providers that hold it: the entry's reason, and any provider's own. */
function whyAccepted(entry: AcceptedEntry, way: PinnedWay): string {
  const own = Object.entries(way.reasons ?? {}).map(([provider, reason]) => `${provider}: ${reason}`);
  return [entry.reason, ...own].map(asClause).join('; ');
}

/** The way more providers hold than any other, or undefined on a tie (then no way is largest). */
export function largest(ways: readonly PinnedWay[]): PinnedWay | undefined {
  const [first, second] = [...ways].sort((a, b) => b.providers.length - a.providers.length);
  return first && (second === undefined || first.providers.length > second.providers.length) ? first : undefined;
}

export interface PinnedInput {
  scenario: string;
  facets: readonly Facet[];
  entries: readonly AcceptedEntry[];
  /** Only these providers are judged (those the run rendered); the others stand in. */
  judged: (provider: string) => boolean;
  /** How findings name accepted.yaml, e.g. `goldens/accepted.yaml`. */
  file: string;
}

/** The providers that left, joined or broke the ways a pinned entry holds, in one scenario. */
export function judgePinned({ scenario, facets, entries, judged, file }: PinnedInput): Finding[] {
  const findings: Finding[] = [];
  for (const facet of facets) {
    const index = entries.findIndex((entry) => pins(entry, scenario, facet.subject, facet.facet));
    if (index < 0) continue;
    const entry = entries[index]!;
    const ways = waysIn(entry, scenario);
    const where = `entry ${index + 1} of ${file}`;
    const words = (way: PinnedWay) => wayInWords(way, facet.subject, facet.facet);
    const pinnedWays = ways.map((way) => ({ summary: words(way), providers: way.providers }));
    for (const [provider, value] of [...facet.values].sort(([a], [b]) => compareText(a, b))) {
      if (!judged(provider)) continue;
      const text = stableStringify(value);
      const mine = ways.find((way) => way.providers.includes(provider));
      if (mine && wayHolds(mine, text)) continue;
      const held = ways.find((way) => wayHolds(way, text));
      const mineNow = facetValueInWords(facet.subject, facet.facet, value);
      const id = divergenceId(facet.subject, facet.facet, provider);
      const accept = `drift accept '${id}' --reason "..."`;
      const others = ways.filter((way) => way !== held && way !== mine);
      const follow = others.length ? `, or follow ${others.map((way) => `${names(way.providers)} (${words(way)})`).join(' or ')}` : '';
      let message: string;
      let hint: string;
      if (mine) {
        const to = held ? `the way of ${names(held.providers)} (${mineNow})` : `a way no provider held when the split was accepted (${mineNow})`;
        message = `${label(facet)}: ${provider} left its accepted way (${words(mine)}, with ${names(mine.providers.filter((p) => p !== provider)) || 'no other provider'}) for ${to}`;
        hint = `${where} accepted ${provider} as ${words(mine)} because ${whyAccepted(entry, mine)}. Make ${provider} hold it again; if the change is intended, accept the new way with a reason: ${accept}`;
      } else if (held && largest(ways) === held) {
        // The way most providers take needs no cloud-specific reason: a newcomer joining it is accepted with them.
        message = `${label(facet)}: ${provider} joins the largest accepted way, of ${names(held.providers)} (${mineNow})`;
        hint = `nothing to do: ${where} accepts the way most providers take for any provider that joins it`;
        findings.push({ ...blamed(scenario, facet, provider, message, () => hint), pinned: { entry: index + 1, ways: pinnedWays, joined: held.providers }, accepted: { reason: `joins the largest way of ${where}: ${whyAccepted(entry, held)}` } });
        continue;
      } else if (held) {
        message = `${label(facet)}: ${provider} joins the accepted way of ${names(held.providers)} (${mineNow})`;
        hint = `${provider} has ${label(facet)} ${mineNow}, like ${names(held.providers)}, accepted for them because ${whyAccepted(entry, held)}; accept it for ${provider} with its own reason (${accept})${follow}`;
      } else {
        message = `${label(facet)}: ${provider} takes a way none of the accepted ways holds (${mineNow})`;
        hint = `${where} accepted ${ways.map((way) => `${names(way.providers)} (${words(way)})`).join('; ')} because ${asClause(entry.reason)}. Make ${provider} follow one of them, or accept its own way with a reason: ${accept}`;
      }
      findings.push({ ...blamed(scenario, facet, provider, message, () => hint), pinned: { entry: index + 1, ways: pinnedWays, ...(held ? { joined: held.providers } : {}) } });
    }
  }
  return findings;
}
