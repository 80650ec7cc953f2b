import { CONTRACT_ROLES } from '../../roles/catalog.js';
import { composerOf } from '../../outline/outline.js';
import type { Outline } from '../../outline/types.js';
import type { FacetMeta } from '../meta.js';

/**
 * What a source facet's extractor is handed and hands back (docs/style.md): one value per provider
 * and the place to change, for the style judge (src/compare/style.ts) to judge every source facet
 * with the same conventions and splits. Each family of facets is one module here with its meta and
 * its extractor (the way ESLint keeps a rule's meta and create together).
 */

/** What an extractor knows of one provider. */
export interface SourceSubject {
  provider: string;
  outline: Outline;
  /** Composed key → contract role. */
  keys: ReadonlyMap<string, string>;
  /** Role composers by their own name, with the roles they compose. */
  composers: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Whether its runtime code writes `value` as a string literal, for `use` when given (where it goes,
   * as a constant's `usedAs`); for a stand-in's golden only the qualified names it records are known.
   */
  usesLiteral: (value: string, use?: string) => boolean;
}

/** Where to change a provider: a place key (`def:…`), with a word on what is there, or a file it lacks. */
export type PlaceKey = string | { key: string; note: string } | { missing: string };

export interface SourceFacet {
  subject: string;
  facet: string;
  describe: string;
  /** A place key (`def:…`, `const:…`, `gate:…`, `literal:…`) in `provider` for the facet's value. */
  placeKey: (provider: string, convention: unknown) => PlaceKey;
  /** Judged one way only: a provider holding a value is blamed, one lacking it never (helper presence). */
  presence?: true;
  /** Tells apart facets sharing a subject and facet. */
  key?: string;
  /** Outliers of a convention only, never a split: a value shared by chance (a CIDR) is not one constant. */
  conventionOnly?: true;
  /** The fix when it depends on the convention's value (which way to move a helper); else the facet meta's. */
  fix?: (convention: unknown) => string;
}

export type AddFacet = (provider: string, facet: SourceFacet, value: unknown) => void;

/** A family of source facets: their meta, and the extractor that hands each provider's value to `add`. */
export interface SourceFamily {
  meta: readonly FacetMeta[];
  extract: (subjects: readonly SourceSubject[], add: AddFacet) => void;
}

export const sorted = (values: Iterable<string>) => [...new Set(values)].sort();
export const bare = (name: string) => name.replace(/^_+/, '');
export const isPrivate = (name: string) => name.startsWith('_');

/** The subject of a provider that takes part: every placeKey is asked only about those. */
export function subjectOf(subjects: readonly SourceSubject[], provider: string): SourceSubject {
  return subjects.find((subject) => subject.provider === provider)!;
}

/** Each contract role's composers in a provider, by their own name, with the place key of each definition. */
export function composersByRole(subject: Pick<SourceSubject, 'outline' | 'keys'>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [key, role] of [...subject.keys].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const found = composerOf(subject.outline, key);
    if (!found || !CONTRACT_ROLES.has(role)) continue;
    const names = out.get(role) ?? new Map<string, string>();
    // A composer is named by its own name; its definition is where a reader renames it.
    for (const name of found.function.split(', ')) if (!names.has(name.split('.').pop()!)) names.set(name.split('.').pop()!, `def:${name}`);
    out.set(role, names);
  }
  return out;
}

/** The role composers by their own name, with the roles each composes. */
export function composerNames(subject: Pick<SourceSubject, 'outline' | 'keys'>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [role, names] of composersByRole(subject)) for (const name of names.keys()) out.set(name, (out.get(name) ?? new Set()).add(role));
  // A function composing a cloud-only key is a composer too, of no contract role: not a helper.
  for (const functions of Object.values(subject.outline.composes)) {
    for (const qualified of functions.split(', ')) {
      const name = qualified.split('.').pop()!;
      if (!out.has(name)) out.set(name, new Set([`cloud:${name}`]));
    }
  }
  return out;
}

/** Which sorted-list members a value has that the convention does not (or the reverse, for a missing one). */
export function firstDifference(value: unknown, convention: unknown): { extra?: string; missing?: string } {
  const own = Array.isArray(value) ? (value as unknown[]).map(String) : [String(value)];
  const wanted = Array.isArray(convention) ? (convention as unknown[]).map(String) : [String(convention)];
  const extra = own.find((item) => !wanted.includes(item));
  const missing = wanted.find((item) => !own.includes(item));
  return { ...(extra !== undefined ? { extra } : {}), ...(missing !== undefined ? { missing } : {}) };
}
