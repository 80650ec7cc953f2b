import { SOURCE_FAMILIES } from '../facets/source/families.js';
import { composerNames, type PlaceKey } from '../facets/source/subject.js';
import { STYLE_FACET_BY_ID } from '../facets/styleFacets.js';
import type { Outline, Places } from '../outline/types.js';
import { stableStringify } from '../util/objects.js';
import { judge, MIN_CONVENTION, requiredOf, type ValueGroup } from './consensus.js';
import type { Finding } from './findings.js';
import { findingId } from './findingId.js';

/**
 * Stylistic drift in the code: the providers' outlines lined up facet by facet and judged with the
 * same conventions and splits as skeletons (consensus.ts). Pure: outlines in, findings out. Style
 * findings have no scenario: one per provider and facet, whatever scenarios ran.
 */

export interface StyleSubject {
  provider: string;
  outline: Outline;
  places: Places;
  /** The source root as the report shows it (`providers/gke`), prefixed to every file:line. */
  root: string;
  /** Composed key → contract role, from this provider's skeletons (every scenario). */
  keys: ReadonlyMap<string, string>;
  /**
   * Where the provider's examples are shown from, when not from `places`: a stand-in judged by its
   * outline golden (no places) whose source on disk was outlined for its file:lines alone. Only what a
   * finding prints reads it; the facts, and so the verdict, stay the golden's.
   */
  shown?: { root: string; places: Places };
}

export interface StyleInput {
  subjects: StyleSubject[];
  /** Providers standing in through their goldens (`drift diff -p P`): they form the conventions. */
  established?: ReadonlySet<string>;
}

/** One comparable fact: a provider's value, and where in its source a reader would change it. */
interface StyleFacet {
  subject: string;
  facet: string;
  /** What the facet is, for messages: "the function that composes node-pool". */
  describe: string;
  values: Map<string, unknown>;
  /** The place to change in `provider` to reach the convention's value. */
  placeOf: (provider: string, convention: unknown) => string;
  /** Judged one way only: a provider whose value is `defined` where the convention is `absent` (a helper only some have). */
  presence?: true;
  /** Tells apart facets that share a subject and facet (two helper jobs whose helpers go by one name). */
  key?: string;
  /** Outliers of a convention only, never a split. */
  conventionOnly?: true;
  /** The fix for this convention, when it depends on its value; else the facet meta's. */
  fix?: (convention: unknown) => string;
}

const text = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value));

/** Every style facet of the subjects, with each provider's value and where a reader changes it. */
function styleFacets(subjects: readonly StyleSubject[]): StyleFacet[] {
  const usable = [...subjects].sort((a, b) => (a.provider < b.provider ? -1 : 1));
  if (usable.length < 2) return [];
  const byProvider = new Map(usable.map((subject) => [subject.provider, subject]));
  const shownOf = (provider: string) => {
    const subject = byProvider.get(provider)!;
    return subject.shown ?? subject;
  };
  const at = (provider: string, key: string, fallback = `file:${firstFile(byProvider.get(provider)!.outline)}`) => {
    const { root, places } = shownOf(provider);
    const place = places.get(key) ?? places.get(fallback) ?? '';
    return `${root}/${place}`;
  };
  const facets = new Map<string, StyleFacet>();
  const add = (provider: string, facet: Omit<StyleFacet, 'values'>, value: unknown) => {
    const id = `${facet.subject}:${facet.facet}:${facet.key ?? ''}`;
    const entry = facets.get(id) ?? { ...facet, values: new Map() };
    entry.values.set(provider, value);
    facets.set(id, entry);
  };

  const sources = usable.map((subject) => ({
    provider: subject.provider,
    outline: subject.outline,
    keys: subject.keys,
    composers: composerNames(subject),
    usesLiteral: (value: string, use?: string) =>
      subject.places.has(use === undefined ? `literal:${value}` : `literal:${value}@${use}`) ||
      Object.values(subject.outline.files).some((module) => module.kind === 'module' && (use === undefined ? module.literals?.[value] !== undefined : module.literals?.[value]?.includes(use) === true)),
  }));
  const placed = (p: string, place: PlaceKey) => (typeof place === 'string' ? at(p, place) : 'missing' in place ? `${shownOf(p).root}/${place.missing} (missing)` : `${at(p, place.key)} (${place.note})`);
  // Each family of source facets hands every provider's value (src/facets/source/).
  for (const family of SOURCE_FAMILIES) {
    family.extract(sources, (provider, facet, value) =>
      add(provider, { subject: facet.subject, facet: facet.facet, describe: facet.describe, placeOf: (p, convention) => placed(p, facet.placeKey(p, convention)), ...(facet.presence ? { presence: true as const } : {}), ...(facet.key ? { key: facet.key } : {}), ...(facet.conventionOnly ? { conventionOnly: true as const } : {}), ...(facet.fix ? { fix: facet.fix } : {}) }, value),
    );
  }
  return [...facets.values()];
}

/** A facet's meta from the registry; a facet without one is drift's own mistake. */
function metaOf(facet: string) {
  const meta = STYLE_FACET_BY_ID.get(facet);
  if (!meta) throw new Error(`style facet ${facet} has no meta in a family of src/facets/source/`);
  return meta;
}

/** A place without the words a hint adds to it: `providers/gke/function/composer.py:12`. */
const bareplace = (place: string) => place.replace(/ \(.*\)$/, '');

/** The Python names an outline records for its defs, classes and constants. */
function definedNames(outline: Outline): string[] {
  return Object.values(outline.files).flatMap((module) => [
    ...Object.keys(module.functions),
    ...Object.keys(module.constants),
    ...Object.entries(module.classes).flatMap(([name, cls]) => [name, ...Object.keys(cls.methods)]),
  ]);
}

/** Every name a provider's code holds that a hint could cite: its own definitions, what it imports and calls. */
function ownNames(subject: StyleSubject): Set<string> {
  const out = new Set(definedNames(subject.outline));
  for (const module of Object.values(subject.outline.files)) for (const text of [...module.imports, ...module.sdkCalls]) for (const word of text.match(IDENTIFIER) ?? []) out.add(word);
  for (const key of subject.places.keys()) if (key.startsWith('call:')) for (const word of key.slice(key.lastIndexOf(':') + 1).match(IDENTIFIER) ?? []) out.add(word);
  return out;
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

export function compareStyle({ subjects, established }: StyleInput): Finding[] {
  const findings: Finding[] = [];
  // A hint speaks in the provider's own names: a convention naming what only the others define
  // (READY_WHEN_COMPOSED, compose_node_pools) is shown as where a follower writes it instead.
  const recorded = new Set(subjects.flatMap((subject) => definedNames(subject.outline)));
  const own = new Map(subjects.map((subject) => [subject.provider, ownNames(subject)]));
  const inOwnWords = (provider: string, value: unknown, follower: string, follows: string | undefined) => {
    const foreign = (text(value).match(IDENTIFIER) ?? []).filter((word) => recorded.has(word) && !own.get(provider)!.has(word));
    return foreign.length === 0 ? text(value) : `as ${follower} writes it${follows ? ` (${follows})` : ''}`;
  };
  for (const facet of styleFacets(subjects)) {
    const texts = new Map([...facet.values].map(([provider, value]) => [provider, stableStringify(value)]));
    const verdict = judge(facet.values, texts, established);
    const values = Object.fromEntries([...facet.values].sort(([a], [b]) => (a < b ? -1 : 1)));
    if (facet.presence) {
      // Only a helper the convention lacks is a finding; lacking a helper some have is no style at all.
      // And a minority of all the providers, judged or standing in: two of five that share a helper are
      // no outliers because one of them is judged with -p.
      if (verdict.kind !== 'convention' || verdict.convention.value !== 'absent') continue;
      const overAll = established ? judge(facet.values, texts) : verdict;
      if (overAll.kind !== 'convention' || overAll.convention.value !== 'absent') continue;
    }
    if (verdict.kind === 'split') {
      if (!facet.conventionOnly) findings.push(split(facet, verdict.groups, values));
      continue;
    }
    if (verdict.kind !== 'convention') continue;
    const follower = verdict.convention.providers.find((p) => established?.has(p) !== true) ?? verdict.convention.providers[0]!;
    for (const provider of verdict.outliers) {
      const id = findingId('style', facet.subject, facet.facet, provider);
      const place = facet.placeOf(provider, verdict.convention.value);
      const follows = facet.presence ? undefined : bareplace(facet.placeOf(follower, verdict.convention.value));
      const where = [bareplace(place), ...(follows ? [`${follower}: ${follows}`] : [])];
      findings.push({
        id,
        type: 'style',
        class: 'stylistic',
        provider,
        subject: facet.subject,
        facet: facet.facet,
        message: facet.presence
          ? `only ${verdict.outliers.join(', ')} ${verdict.outliers.length === 1 ? 'defines' : 'define'} ${facet.subject} (${facet.describe}); ${verdict.convention.providers.join(', ')} do without one`
          : `${facet.describe} differs from the convention: ${text(facet.values.get(provider))} where ${verdict.convention.providers.join(', ')} use ${text(verdict.convention.value)}`,
        values,
        consensus: verdict.convention.value,
        where,
        hint: `the convention (${verdict.convention.providers.length} of ${verdict.compared}) is ${inOwnWords(provider, verdict.convention.value, follower, follows ?? bareplace(facet.placeOf(follower, verdict.convention.value)))}: change ${place} (${facet.fix?.(verdict.convention.value) ?? metaOf(facet.facet).fix}), or accept it with a reason: drift accept '${id}' --reason "..."`,
      });
    }
  }
  return findings;
}

/**
 * What the style facets require of one provider (`drift expect`), from the other subjects' values alone
 * (consensus.ts `requiredOf`), as compareStyle judges it: a convention; a helper only the convention
 * does without; the value of the only other provider that has it (a split). Once the provider is
 * outlined (`rendered`), only the facets it has.
 */
export function styleRequirements(subjects: readonly StyleSubject[], provider: string, rendered = true): Array<{ id: string; subject: string; facet: string; expect: string; by: string }> {
  const out: Array<{ id: string; subject: string; facet: string; expect: string; by: string }> = [];
  for (const facet of styleFacets(subjects)) {
    if (rendered && !facet.values.has(provider)) continue;
    const others = new Map([...facet.values].filter(([name]) => name !== provider));
    const required = requiredOf(others, new Map([...others].map(([name, value]) => [name, stableStringify(value)])), false);
    const about = { subject: facet.subject, facet: facet.facet };
    if (required?.kind === 'convention' && (!facet.presence || required.convention.value === 'absent')) {
      out.push({ id: findingId('style', facet.subject, facet.facet, provider), ...about, expect: facet.presence ? `no ${facet.subject} (${facet.describe})` : text(required.convention.value), by: `style convention of ${required.convention.providers.join(', ')}: ${facet.describe}` });
    }
    if (required?.kind === 'pair' && !facet.presence && !facet.conventionOnly) {
      out.push({ id: findingId('style', facet.subject, facet.facet), ...about, expect: text(required.other.value), by: `only ${required.other.providers.join(', ')} ${required.other.providers.length === 1 ? 'has' : 'have'} it besides: a difference is a split (${facet.describe})` });
    }
  }
  return out;
}

/** A style facet every outlined provider shares, at least three of them: what the contract states as the code's convention. */
export interface StyleConvention {
  subject: string;
  facet: string;
  /** What the facet is: "the function that composes node-pool". */
  describe: string;
  /** The shared value in words. */
  value: string;
  providers: string[];
}

/**
 * What the contract states of the code: what a new provider must write the same way, read from the
 * outlines alone. Where each helper lives (`<name>:module`) changes whenever a provider adds a helper,
 * and the composer of a role hinges on the roles its skeletons give its keys, so a golden updated
 * for one scenario and not the outline would change the contract; drift diff still judges both.
 */
const CONTRACT_STYLE_FACETS: ReadonlySet<string> = new Set(['naming-style', 'idiom', 'layout']);

/** The style facets every subject agrees on (at least three subjects), in subject then facet order. */
export function agreedStyle(subjects: readonly StyleSubject[]): StyleConvention[] {
  if (subjects.length < MIN_CONVENTION) return [];
  const providers = subjects.map((subject) => subject.provider).sort();
  return styleFacets(subjects)
    .filter((facet) => CONTRACT_STYLE_FACETS.has(facet.facet) && facet.values.size === subjects.length)
    .filter((facet) => new Set([...facet.values.values()].map((value) => stableStringify(value))).size === 1)
    .map((facet) => ({ subject: facet.subject, facet: facet.facet, describe: facet.describe, value: text(facet.values.values().next().value), providers }))
    .sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : a.facet < b.facet ? -1 : a.facet > b.facet ? 1 : 0));
}

function split(facet: StyleFacet, groups: ValueGroup[], values: Record<string, unknown>): Finding {
  const id = findingId('style', facet.subject, facet.facet);
  return {
    id,
    type: 'split',
    class: 'stylistic',
    subject: facet.subject,
    facet: facet.facet,
    message: `${facet.describe} has no convention: ${groups.map((group) => `${text(group.value)} (${group.providers.join(', ')})`).join('; ')}`,
    values,
    groups: groups.map((group) => ({ value: group.value, providers: group.providers })),
    hint: `decide which is right and align the others, or accept the split with a reason: drift accept '${id}' --reason "..."`,
  };
}

function firstFile(outline: Outline): string {
  return Object.keys(outline.files)[0] ?? '';
}

