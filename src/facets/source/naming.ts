import type { FacetMeta } from '../meta.js';
import { composersByRole, firstDifference, subjectOf, type AddFacet, type SourceFamily, type SourceSubject } from './subject.js';

/**
 * How the code names what a reader looks up: the function composing each contract role
 * (`composer`), and the naming style of module constants (`naming-style`).
 */

/** Where these facets' values come from. */
const SOURCE = { source: 'outline', scope: 'source', extractor: 'src/facets/source/naming.ts' } as const;

const META: readonly FacetMeta[] = [
  {
    id: 'composer',
    class: 'stylistic',
    ...SOURCE,
    description: 'The function that composes each contract role, by name.',
    compares: "the names of the functions whose bodies hold the role's composed keys",
    example: 'gke composes node-pool in _nodepools where the others use compose_node_pools',
    fix: 'rename the function to the convention’s name',
  },
  {
    id: 'naming-style',
    class: 'stylistic',
    ...SOURCE,
    description: 'The naming style of module constants.',
    compares: 'the set of naming styles (UPPER_SNAKE, camelCase, ...) of the module constants',
    example: 'eks names a constant vpcCidr where every other constant is UPPER_SNAKE',
    fix: 'rename the constant in the convention’s style',
  },
];

/** A provider's module constants (type aliases are spelled as classes: the type-alias facet judges them). */
function constantsOf(subject: SourceSubject) {
  return Object.entries(subject.outline.files).flatMap(([file, module]) => Object.entries(module.constants).filter(([, constant]) => constant.alias === undefined).map(([name, constant]) => ({ file, name, style: constant.style })));
}

function extract(subjects: readonly SourceSubject[], add: AddFacet): void {
  for (const subject of subjects) {
    const { provider } = subject;
    // The function that composes each contract role: its name is how a reader finds the role's code.
    for (const [role, names] of composersByRole(subject)) {
      add(
        provider,
        {
          subject: role,
          facet: 'composer',
          describe: `the function that composes ${role}`,
          placeKey: (p, convention) => {
            const own = composersByRole(subjectOf(subjects, p)).get(role);
            const { extra } = firstDifference([...(own?.keys() ?? [])].sort(), convention);
            return (extra !== undefined ? own?.get(extra) : undefined) ?? [...(own?.values() ?? [])][0] ?? '';
          },
        },
        [...names.keys()].sort(),
      );
    }
    const constants = constantsOf(subject);
    if (constants.length > 0) {
      add(
        provider,
        {
          subject: 'constants',
          facet: 'naming-style',
          describe: 'the naming style of module constants',
          placeKey: (p, convention) => {
            const wanted = new Set(Array.isArray(convention) ? (convention as string[]) : []);
            const own = constantsOf(subjectOf(subjects, p));
            const odd = own.find((constant) => !wanted.has(constant.style)) ?? own[0];
            return odd ? { key: `const:${odd.file}:${odd.name}`, note: odd.name } : '';
          },
        },
        [...new Set(constants.map((constant) => constant.style))].sort(),
      );
    }
  }
}

export const NAMES: SourceFamily = { meta: META, extract };
