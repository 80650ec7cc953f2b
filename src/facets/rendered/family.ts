import type { ResourceSkeleton, Skeleton } from '../../skeleton/types.js';
import { stableStringify } from '../../util/objects.js';
import type { FacetMeta } from '../meta.js';

/**
 * What a rendered facet's extractor is handed and hands back: one provider's skeleton in, its values
 * of the facets out, for the comparison across providers (src/compare/cross.ts) to line up and judge.
 * Each family of facets is one module here with its meta and its extractor, as the source facets'
 * families are (src/facets/source/).
 */

/** One provider's value of a facet, before the providers are lined up; its class is the registry's. */
export interface RenderedValue {
  subject: string;
  facet: string;
  value: unknown;
}

/** What a role's extractor knows of one provider: the role, and its resources if it composes the role. */
export interface RoleContext {
  skeleton: Skeleton;
  role: string;
  /** The role's keys and resources, when the provider composes it under keys of its own. */
  composed?: { keys: ReadonlyArray<readonly [string, ResourceSkeleton]>; resources: readonly ResourceSkeleton[] };
  /** The scenario's pool names, abstracted out of keys. */
  pools: readonly string[];
  /** Whether the gating analysis ran on this scenario, so `gatedOn` and `intent` are meaningful. */
  ablated: boolean;
}

/** A family of rendered facets: their meta, and what each provider's skeleton gives them, per role or per cell. */
export interface RenderedFamily {
  meta: readonly FacetMeta[];
  /** Asked for every role any compared provider plays. */
  role?: (context: RoleContext) => RenderedValue[];
  /** Asked once per provider's cell. */
  cell?: (skeleton: Skeleton) => RenderedValue[];
}

/** A set of strings, sorted. */
export const sortedSet = (values: Iterable<string>) => [...new Set(values)].sort();

/** Distinct values by their canonical text, in the order of that text. */
export const distinct = <T>(values: readonly T[]): T[] =>
  [...new Map(values.map((value) => [stableStringify(value), value])).entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, value]) => value);

/** Whether the cell's errored analysis left a facet unknown: it then takes no part (its error finding stands alone). */
export const unknownIn = (skeleton: Skeleton, facet: string) => (skeleton.unknown as readonly string[] | undefined)?.includes(facet) ?? false;
