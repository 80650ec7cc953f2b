/**
 * Every facet drift compares across providers, with its meta: what conventions, splits, locks and
 * accepted entries are about. Rules describe themselves in src/compare/rules/; facets do in their
 * families (src/facets/rendered/, src/facets/source/), listed here; the reports, the generated
 * contract and docs/facets.md take their words from this table.
 */
import type { FacetMeta } from './meta.js';
import { RENDERED_FAMILIES } from './rendered/renderedFamilies.js';
import { STYLE_FACETS } from './styleFacets.js';

/** The rendered facets, from the families that extract them (src/facets/rendered/). */
const RENDERED: readonly FacetMeta[] = RENDERED_FAMILIES.flatMap((family) => family.meta);

/** The source facets, with the same meta (styleFacets.ts). */
export const FACETS: readonly FacetMeta[] = [...RENDERED, ...STYLE_FACETS];

const BY_ID = new Map(FACETS.map((facet) => [facet.id, facet]));

/** A facet's meta; an unregistered id is a bug in drift, not in the user's input. */
export function facetMeta(id: string): FacetMeta {
  const meta = BY_ID.get(id);
  if (!meta) throw new Error(`facet ${id} is not in the registry (src/facets/registry.ts)`);
  return meta;
}

export function isFacet(id: string): boolean {
  return BY_ID.has(id);
}
