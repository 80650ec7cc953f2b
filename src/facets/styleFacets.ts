import type { FacetMeta } from './meta.js';
import { SOURCE_FAMILIES } from './source/families.js';

/**
 * The style facets' meta, from the families that extract them (src/facets/source/): what each
 * compares across the providers' outlines, an example of a drift it reports, and the fix. The facet
 * registry (registry.ts) lists these beside the rendered facets; docs/style.md describes them.
 */
export const STYLE_FACETS: readonly FacetMeta[] = SOURCE_FAMILIES.flatMap((family) => family.meta);

/** The meta of a style facet, by id. */
export const STYLE_FACET_BY_ID: ReadonlyMap<string, FacetMeta> = new Map(STYLE_FACETS.map((facet) => [facet.id, facet]));
