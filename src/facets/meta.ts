/**
 * The one meta type of every facet drift compares across providers, rendered or source: what it is,
 * what it compares, an example, the fix, and the module that extracts its value. The registry
 * (registry.ts) lists them; reports, the generated contract and docs/facets.md take their words from it.
 */

/** Where a facet's value is read: the rendered skeleton, or the provider's source outline. */
export type FacetSource = 'skeleton' | 'outline';

/** What one value of the facet belongs to. */
export type FacetScope = 'role' | 'cell' | 'perturbation' | 'source';

/** A facet's finding class: rules and locks are `contract`; a facet is what behaves or what reads alike. */
export type FacetClass = 'behavioral' | 'stylistic';

export interface FacetMeta {
  /** The `facet` of its findings. */
  id: string;
  class: FacetClass;
  source: FacetSource;
  scope: FacetScope;
  /** One sentence: what the facet is. */
  description: string;
  /** What is compared between providers, and what is left out on purpose. */
  compares: string;
  /** A value as it appears in a report. */
  example: string;
  /** What to do about a provider that differs. */
  fix: string;
  /** The module (and function) whose code extracts the value. */
  extractor: string;
}
