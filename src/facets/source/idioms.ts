import type { Outline } from '../../outline/types.js';
import type { FacetMeta } from '../meta.js';
import { runtimeDefs } from './jobs.js';
import { subjectOf, type AddFacet, type SourceFamily, type SourceSubject } from './subject.js';

/**
 * How the SDK's idioms are written (`idiom`: resource writes, readiness marks and what decides them,
 * results) and how readiness marking is laid out (`readiness-shape`).
 */

/** Where these facets' values come from. */
const SOURCE = { source: 'outline', scope: 'source', extractor: 'src/facets/source/idioms.ts' } as const;

const META: readonly FacetMeta[] = [
  {
    id: 'idiom',
    class: 'stylistic',
    ...SOURCE,
    description: 'How composed resources are written, readiness is marked and decided, and results are emitted.',
    compares: 'the forms of each SDK idiom the package uses (`resource.update(desired.resources[])`, `response.<severity>()`, ...)',
    example: 'nebius writes `desired.resources[].resource.update()` where the others call `resource.update(desired.resources[], body)`',
    fix: 'write the idiom in the convention’s form',
  },
  {
    id: 'readiness-shape',
    class: 'stylistic',
    ...SOURCE,
    description: 'How readiness marking is laid out.',
    compares: 'a loop over the desired resources or one key at a time, and whether the decision singles out a literal key',
    example: 'acme marks readiness in the loop but special-cases `key == "cluster"` inside it',
    fix: 'decide readiness as the others do (in-cluster resources ready when composed, cloud resources once observed Ready), without a special case',
  },
];

/** The SDK's response helpers count as one mechanism: which severities a provider emits is behaviour, not style. */
function resultMechanism(form: string): string {
  return /^response\.(normal|warning|fatal)\(\)$/.test(form) ? 'response.<severity>()' : form;
}

/**
 * What decides readiness, by the kind of thing consulted: a module constant of keys, a helper of the
 * provider's own, or an SDK call. Their names are other facets' (naming-style, helper-name): a renamed
 * constant or helper decides readiness the same way.
 */
function consultedKind(form: string, outline: Outline): string {
  const modules = Object.values(outline.files).filter((module) => module.kind === 'module');
  if (modules.some((module) => Object.hasOwn(module.constants, form))) return 'a module constant';
  const call = /^([\w.]+)\(\)$/.exec(form);
  if (call && runtimeDefs(outline).some((def) => def.name === call[1]!.split('.').pop())) return 'a helper of its own';
  return form;
}

const IDIOMS: Array<[keyof Outline['idioms'], string, string, (form: string, outline: Outline) => string]> = [
  ['resourceWrite', 'resource-write', 'how composed resources are written', (form) => form],
  ['readinessMark', 'readiness-mark', 'how readiness is marked', (form) => form],
  ['readinessBy', 'readiness-by', 'what decides readiness', consultedKind],
  ['results', 'results', 'how results are emitted', resultMechanism],
];

function extract(subjects: readonly SourceSubject[], add: AddFacet): void {
  for (const { provider, outline } of subjects) {
    const shape = outline.idioms.readinessShape ?? [];
    if (shape.length > 0) {
      add(
        provider,
        {
          subject: 'readiness',
          facet: 'readiness-shape',
          describe: 'how readiness marking is laid out',
          placeKey: (p, convention) => {
            const own = subjectOf(subjects, p).outline.idioms.readinessShape ?? [];
            const odd = own.find((form) => !(convention as string[]).includes(form)) ?? own[0];
            return odd ? `idiom:readinessShape:${odd}` : '';
          },
        },
        [...shape],
      );
    }
    for (const [idiom, name, describe, normalize] of IDIOMS) {
      const forms = outline.idioms[idiom];
      if (forms.length === 0) continue;
      add(
        provider,
        {
          subject: name,
          facet: 'idiom',
          describe,
          placeKey: (p, convention) => {
            const { outline: theirs } = subjectOf(subjects, p);
            const own = theirs.idioms[idiom];
            const odd = own.find((form) => !(convention as string[]).includes(normalize(form, theirs))) ?? own[0];
            return odd ? `idiom:${idiom}:${odd}` : '';
          },
        },
        [...new Set(forms.map((form) => normalize(form, outline)))].sort(),
      );
    }
  }
}

export const IDIOM_FACETS: SourceFamily = { meta: META, extract };
