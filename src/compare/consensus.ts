/**
 * Conventions and splits: how the providers' values of one facet are judged. Pure.
 *
 * The rule. A facet has a *convention* when one value is shared by at least three of the providers
 * that can be compared on it (its voters: those that have the subject; absence is a value only for
 * presence facets, whose callers give every provider one) and by at least two thirds of them; the
 * providers that differ from a convention are its outliers. Fewer voters, or no value that clear,
 * make a *split*: nobody is blamed. Two of three is no convention: two providers that agree outvote
 * nobody, and a cloud that composes nothing in a scenario does not make the other two a majority.
 *
 * With established providers (`drift diff -p P`: the others stand in through their goldens), only
 * the established ones form the convention, by the same rule, so a pair of established providers
 * that agree forms none. One established provider is no convention. Where the established hold no
 * convention, the facet is judged over everyone as a full run would: a split is reported as the
 * split (P alone differing from a pair is one), a convention of everyone blames only its judged
 * outliers (several judged at once beside a pair). P is never blamed for a split among the
 * established, and established providers are never outliers: only judged ones are.
 * One exception: a *newcomer* P (no golden of its own yet) that follows none of the established
 * ways, each held by at least two providers, is a *novel* outlier, blamed beside the split. It
 * brings a way nobody established uses, and an accepted split of the established ways says nothing
 * about a way that did not exist when it was accepted. A P with a golden is judged on its own
 * changes by that golden.
 *
 * No provider's name counts for anything: groups are ordered by size, then by their value's
 * canonical text, only so that output is deterministic.
 */

export interface ValueGroup {
  /** The value's canonical text: equal values, equal text. */
  text: string;
  value: unknown;
  /** Sorted. */
  providers: string[];
}

export type Verdict =
  /** Nothing to report: fewer than two providers compared, everybody agrees, or no judged provider differs. */
  | { kind: 'agreed' }
  | { kind: 'convention'; convention: ValueGroup; outliers: string[]; compared: number }
  /**
   * `-p` only: the established split into ways of two or more, and each outlier, a newcomer, follows none. The
   * split over everyone (`groups`) is still reported, blaming nobody, beside the outliers.
   */
  | { kind: 'novel'; ways: ValueGroup[]; outliers: string[]; compared: number; groups: ValueGroup[] }
  | { kind: 'split'; groups: ValueGroup[] };

/** The providers' values grouped by canonical text: largest group first, then by text. */
export function groupValues(values: ReadonlyMap<string, unknown>, texts: ReadonlyMap<string, string>): ValueGroup[] {
  const groups = new Map<string, ValueGroup>();
  for (const [provider, value] of values) {
    const text = texts.get(provider)!;
    const group = groups.get(text) ?? { text, value, providers: [] };
    group.providers.push(provider);
    groups.set(text, group);
  }
  for (const group of groups.values()) group.providers.sort();
  return [...groups.values()].sort((a, b) => b.providers.length - a.providers.length || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}

/** The fewest providers that can hold a convention (its voters), and the share of the compared it needs. */
export const MIN_CONVENTION = 3;
const holdsConvention = (size: number, compared: number) => size >= MIN_CONVENTION && 3 * size >= 2 * compared;

/** The convention among `groups`, if there is one. */
function conventionOf(groups: ValueGroup[], compared: number): ValueGroup | undefined {
  const top = groups[0];
  return top && holdsConvention(top.providers.length, compared) ? top : undefined;
}

/**
 * Judges one facet. `established`, when given, names the providers that stand in through their
 * goldens; every other provider in `values` is judged against them. `newcomers` names the judged
 * providers that have no golden yet.
 */
export function judge(values: ReadonlyMap<string, unknown>, texts: ReadonlyMap<string, string>, established?: ReadonlySet<string>, newcomers?: ReadonlySet<string>): Verdict {
  if (values.size < 2) return { kind: 'agreed' };
  const groups = groupValues(values, texts);
  if (groups.length === 1) return { kind: 'agreed' };
  if (!established || established.size === 0) {
    const convention = conventionOf(groups, values.size);
    if (!convention) return { kind: 'split', groups };
    return { kind: 'convention', convention, outliers: [...values.keys()].filter((p) => !convention.providers.includes(p)).sort(), compared: values.size };
  }
  const judged = [...values.keys()].filter((provider) => !established.has(provider)).sort();
  const standIns = new Map([...values].filter(([provider]) => established.has(provider)));
  if (judged.length === 0 || standIns.size === 0) return { kind: 'agreed' };
  const standInGroups = groupValues(standIns, texts);
  const convention = conventionOf(standInGroups, standIns.size);
  if (!convention) {
    const known = new Set(standInGroups.map((group) => group.text));
    const novel = judged.filter((provider) => newcomers?.has(provider) && !known.has(texts.get(provider)!));
    // Ways are a split of the established: one way of two providers is too few voters to blame anyone.
    if (novel.length && standInGroups.length >= 2 && standInGroups.every((group) => group.providers.length >= 2)) return { kind: 'novel', ways: standInGroups, outliers: novel, compared: standIns.size, groups };
    // Too few established to judge P against. What a full run would say still holds: a split stays a
    // split (never blamed on P); a convention of everyone blames only its judged outliers (where P
    // completes it, its outliers are established providers, which this run does not judge).
    const full = judge(values, texts);
    if (full.kind === 'split') return full;
    const judgedOutliers = full.kind === 'convention' ? full.outliers.filter((provider) => !established.has(provider)) : [];
    return full.kind === 'convention' && judgedOutliers.length ? { ...full, outliers: judgedOutliers } : { kind: 'agreed' };
  }
  const outliers = judged.filter((provider) => texts.get(provider) !== convention.text);
  return outliers.length ? { kind: 'convention', convention, outliers, compared: standIns.size } : { kind: 'agreed' };
}

/**
 * What `judge` holds one judged provider to on a facet under `-p`, read from the established providers'
 * values alone (the provider's own takes no part): their convention (a clear majority, at least
 * three); the value they all share where they are too few for a convention (differing from it makes
 * a split); for a newcomer, one of their ways where each is held by two or more. Undefined where
 * `judge` would blame the provider for nothing. What `drift expect` prints as the target.
 */
export type Requirement =
  | { kind: 'convention'; convention: ValueGroup; compared: number }
  | { kind: 'ways'; ways: ValueGroup[] }
  | { kind: 'pair'; other: ValueGroup };

export function requiredOf(standIns: ReadonlyMap<string, unknown>, texts: ReadonlyMap<string, string>, newcomer: boolean): Requirement | undefined {
  if (standIns.size === 0) return undefined;
  const groups = groupValues(standIns, texts);
  const convention = conventionOf(groups, standIns.size);
  if (convention) return { kind: 'convention', convention, compared: standIns.size };
  if (groups.length === 1) return { kind: 'pair', other: groups[0]! };
  if (newcomer && groups.every((group) => group.providers.length >= 2)) return { kind: 'ways', ways: groups };
  return undefined;
}
