import type { FacetMeta } from '../meta.js';
import { runtimeDefs } from './jobs.js';
import { isPrivate, subjectOf, type AddFacet, type SourceFamily, type SourceSubject } from './subject.js';

/**
 * What the defs' signatures and docstrings say: containers annotated bare or parameterized
 * (`annotations`), and docstrings on the defs a reader looks up (`docstrings`).
 */

/** Where these facets' values come from. */
const SOURCE = { source: 'outline', scope: 'source', extractor: 'src/facets/source/defs.ts' } as const;

const META: readonly FacetMeta[] = [
  {
    id: 'annotations',
    class: 'stylistic',
    ...SOURCE,
    description: 'How container types are annotated in signatures.',
    compares: 'parameterized (`dict[str, Any]`) or bare (`dict`)',
    example: 'gke annotated `pool: dict -> dict` where the others write `dict[str, Any]`',
    fix: 'parameterize the container types',
  },
  {
    id: 'docstrings',
    class: 'stylistic',
    ...SOURCE,
    description: 'Docstrings on the public and role-composing defs.',
    compares: 'whether every public def and every role composer carries a docstring',
    example: 'acme’s compose_network has no docstring',
    fix: 'add a docstring saying what the def composes and when',
  },
];

/** A container type written without its parameters, in an annotation. */
const BARE_CONTAINER = /(?::|->)\s*(?:[\w.]+\s*\|\s*)*(?:dict|list|tuple|set)\b(?!\[)/;

function extract(subjects: readonly SourceSubject[], add: AddFacet): void {
  for (const subject of subjects) {
    const { provider, outline } = subject;
    const defs = runtimeDefs(outline);
    // Type annotations: containers parameterized (`dict[str, Any]`) or bare (`dict`).
    const annotated = defs.filter((def) => def.outline.signature.includes(':') || def.outline.signature.includes('->'));
    if (annotated.length > 0) {
      add(
        provider,
        {
          subject: 'type annotations',
          facet: 'annotations',
          describe: 'how container types are annotated',
          placeKey: (p) => {
            const bareOne = runtimeDefs(subjectOf(subjects, p).outline).find((def) => BARE_CONTAINER.test(def.outline.signature));
            return bareOne ? `def:${bareOne.qualified}` : annotated[0] ? `def:${annotated[0].qualified}` : '';
          },
        },
        annotated.some((def) => BARE_CONTAINER.test(def.outline.signature)) ? 'bare containers (dict, list)' : 'parameterized containers (dict[str, Any])',
      );
    }


    // Docstrings on the defs a reader looks up: the public ones and the role composers.
    const looked = defs.filter((def) => !/^__.*__$/.test(def.name) && (!isPrivate(def.name) || subject.composers.has(def.name)));
    if (looked.length > 0) {
      add(
        provider,
        {
          subject: 'public and role defs',
          facet: 'docstrings',
          describe: 'docstrings on public and role-composing defs',
          placeKey: (p) => {
            const other = subjectOf(subjects, p);
            const missing = runtimeDefs(other.outline).find((def) => !/^__.*__$/.test(def.name) && (!isPrivate(def.name) || other.composers.has(def.name)) && !def.outline.docstring);
            return missing ? `def:${missing.qualified}` : looked[0] ? `def:${looked[0].qualified}` : '';
          },
        },
        looked.every((def) => def.outline.docstring) ? 'every one' : 'not every one',
      );
    }
  }
}

export const DEFS: SourceFamily = { meta: META, extract };
