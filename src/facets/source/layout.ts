import type { Outline } from '../../outline/types.js';
import type { FacetMeta } from '../meta.js';
import { firstDifference, subjectOf, type AddFacet, type SourceFamily, type SourceSubject } from './subject.js';

/**
 * Where the code lives: the package's modules and the test files (`layout`), and the module that
 * defines each helper (`module`).
 */

/** Where these facets' values come from. */
const SOURCE = { source: 'outline', scope: 'source', extractor: 'src/facets/source/layout.ts' } as const;

const META: readonly FacetMeta[] = [
  {
    id: 'layout',
    class: 'stylistic',
    ...SOURCE,
    description: 'The module and test layout.',
    compares: 'the paths of the package modules, and of the test files',
    example: 'gke adds function/refs.py; eks names its test helpers tests/builder.py',
    fix: 'move the code into the convention’s modules',
  },
  {
    id: 'module',
    class: 'stylistic',
    ...SOURCE,
    description: 'The module that defines each helper, by name.',
    compares: 'the file that defines a function or method of that name',
    example: 'gke defines _credentials_ref in function/refs.py where the others keep it in function/composer.py',
    fix: 'move the helper to the convention’s module',
  },
];

const LAYOUTS = [
  ['package', ['module', 'package-marker'], 'the module layout'],
  ['tests', ['test', 'test-helper'], 'the test layout'],
] as const;

/** The place key of a function or method `name` in a runtime module of the outline. */
function definitionKey(outline: Outline, name: string): string | undefined {
  for (const module of Object.values(outline.files)) {
    if (module.kind !== 'module') continue;
    if (name in module.functions) return `def:${name}`;
    for (const [cls, body] of Object.entries(module.classes)) if (name in body.methods) return `def:${cls}.${name}`;
  }
  return undefined;
}

function extract(subjects: readonly SourceSubject[], add: AddFacet): void {
  for (const { provider, outline } of subjects) {
    const files = Object.entries(outline.files);
    // Layout: the package's modules and the test files, by path.
    for (const [subject, kinds, describe] of LAYOUTS) {
      const paths = files.filter(([, module]) => (kinds as readonly string[]).includes(module.kind)).map(([file]) => file);
      if (paths.length === 0) continue;
      add(
        provider,
        {
          subject,
          facet: 'layout',
          describe,
          placeKey: (p, convention) => {
            const own = Object.entries(subjectOf(subjects, p).outline.files).filter(([, module]) => (kinds as readonly string[]).includes(module.kind)).map(([file]) => file);
            const { extra, missing } = firstDifference(own, convention);
            if (extra !== undefined) return `file:${extra}`;
            return missing !== undefined ? { missing } : `file:${own[0] ?? ''}`;
          },
        },
        paths,
      );
    }
    // Where each helper lives: the same job in the same module.
    for (const [file, module] of files) {
      if (module.kind !== 'module') continue;
      const names = [...Object.keys(module.functions), ...Object.values(module.classes).flatMap((cls) => Object.keys(cls.methods))];
      for (const name of new Set(names)) {
        if (name.startsWith('__')) continue;
        add(provider, { subject: name, facet: 'module', describe: `the module that defines ${name}`, placeKey: (p) => definitionKey(subjectOf(subjects, p).outline, name) ?? '' }, file);
      }
    }
  }
}

export const LAYOUT: SourceFamily = { meta: META, extract };
