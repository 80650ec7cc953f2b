import type { Outline } from '../../outline/types.js';
import type { FacetMeta } from '../meta.js';
import { runtimeDefs } from './jobs.js';
import { subjectOf, type AddFacet, type SourceFamily, type SourceSubject } from './subject.js';

/**
 * Constants by value and use (docs/style.md, "Constants by value"): named or written as a literal
 * (`constant-literal`), the name among the named (`constant-name`), whether a structured constant is
 * annotated (`constant-annotation`), and type aliases (`type-alias`).
 */

/** Where these facets' values come from. */
const SOURCE = { source: 'outline', scope: 'source', extractor: 'src/facets/source/constants.ts' } as const;

const META: readonly FacetMeta[] = [
  {
    id: 'constant-literal',
    class: 'stylistic',
    ...SOURCE,
    description: 'A value the others name as a module constant, written as a literal (or the reverse).',
    compares: 'named or literal, per string value a provider holds in a module constant',
    example: 'acme writes "modelplane-rwx" where the others use STORAGE_CLASS',
    fix: 'use (or define) the constant the convention has, or write the literal as the others do',
  },
  {
    id: 'constant-name',
    class: 'stylistic',
    ...SOURCE,
    description: 'The name of the constant holding the same value (a prefix, an alias).',
    compares: 'the constant’s name, leading underscores aside, per string value and where function bodies use it (`"apiVersion":`, `argument of update`): a value shared by chance, used elsewhere, is another constant; a convention’s outliers only, never a split',
    example: 'acme names it ACME_STORAGE_CLASS where the others use STORAGE_CLASS',
    fix: 'rename the constant to the convention’s name',
  },
  {
    id: 'constant-annotation',
    class: 'stylistic',
    ...SOURCE,
    description: 'Whether a structured constant of the same name carries a type annotation.',
    compares: 'annotated or not, per dict, tuple or list constant name (SYSTEM_POOL, DEFAULT_CREDENTIALS); a convention’s outliers only',
    example: 'gke wrote `SYSTEM_POOL = {...}` where the others write `SYSTEM_POOL: dict[str, Any] = {...}`',
    fix: 'annotate it as the others do (or drop the annotation)',
  },
  {
    id: 'type-alias',
    class: 'stylistic',
    ...SOURCE,
    description: 'A type the others write out, given an alias (or the reverse).',
    compares: 'the alias’s name, or `written out` where a signature spells the aliased type',
    example: 'acme defines `Body = dict[str, Any]` where the others annotate dict[str, Any]',
    fix: 'write the type as the convention does',
  },
];

/** Constants matched by value: the same string named the same way, or written as a literal; type aliases. */
function extract(subjects: readonly SourceSubject[], add: AddFacet): void {
  const named = new Map<string, Map<string, { name: string; file: string; usedAs?: string[] }>>();
  const aliases = new Map<string, Map<string, { name: string; file: string }>>();
  for (const { provider, outline } of subjects) {
    for (const [file, module] of Object.entries(outline.files)) {
      if (module.kind !== 'module') continue;
      for (const [name, constant] of Object.entries(module.constants)) {
        const into = constant.value !== undefined ? named : constant.alias !== undefined ? aliases : undefined;
        const value = constant.value ?? constant.alias;
        if (!into || value === undefined || value.length < 3) continue;
        const entry = into.get(value) ?? new Map();
        if (!entry.has(provider)) entry.set(provider, { name, file, ...(constant.usedAs ? { usedAs: constant.usedAs } : {}) });
        into.set(value, entry);
      }
    }
  }
  const signatures = (outline: Outline) => runtimeDefs(outline).map((def) => def.outline.signature);
  for (const [value, byProvider] of [...named].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const subject = `"${value}"`;
    // Named or literal, use by use: a value shared by chance (a label value, a taint's value, a resource
    // key) is the same constant only where it goes to the same place.
    const uses = [...new Set([...byProvider.values()].flatMap((constant) => constant.usedAs ?? []))].sort();
    for (const use of uses) {
      for (const { provider, usesLiteral: literal } of subjects) {
        const own = byProvider.get(provider);
        const named = own?.usedAs?.includes(use) === true;
        const usesLiteral = literal(value, use);
        if (!named && !usesLiteral) continue;
        const placeKey = (p: string) => {
          const constant = byProvider.get(p);
          const other = subjectOf(subjects, p);
          return constant?.usedAs?.includes(use) && !other.usesLiteral(value, use) ? `const:${constant.file}:${constant.name}` : `literal:${value}@${use}`;
        };
        add(provider, { subject, key: use, facet: 'constant-literal', describe: `the value ${subject} (used as ${use}): a named constant or a literal`, placeKey }, named && usesLiteral ? 'named, and written as a literal too' : named ? 'named' : 'literal');
      }
    }
    for (const { provider } of subjects) {
      // Named for the same job: the same value used in the same places (a VPC's range and a subnet's are two constants).
      const own = byProvider.get(provider);
      if (own) {
        const uses = (own.usedAs ?? []).join(', ') || 'unused';
        const placeKey = (p: string) => {
          const constant = byProvider.get(p);
          return constant ? `const:${constant.file}:${constant.name}` : `literal:${value}`;
        };
        add(provider, { subject, facet: 'constant-name', key: uses, describe: `the name of the constant holding ${subject} (used as ${uses})`, placeKey, conventionOnly: true }, own.name.replace(/^_+/, ''));
      }
    }
  }
  // Structured constants of the same name (SYSTEM_POOL, DEFAULT_CREDENTIALS): annotated or not.
  const structured = new Map<string, Map<string, { file: string; annotated: boolean }>>();
  for (const { provider, outline } of subjects) {
    for (const [file, module] of Object.entries(outline.files)) {
      if (module.kind !== 'module') continue;
      for (const [name, constant] of Object.entries(module.constants)) {
        if (constant.shape === undefined || constant.shape === 'call' || constant.shape === 'other') continue;
        const entry = structured.get(name) ?? new Map();
        entry.set(provider, { file, annotated: constant.annotated === true });
        structured.set(name, entry);
      }
    }
  }
  for (const [name, byProvider] of [...structured].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const [provider, constant] of byProvider) {
      add(provider, { subject: name, facet: 'constant-annotation', describe: `whether ${name} carries a type annotation`, placeKey: (p) => `const:${byProvider.get(p)?.file ?? ''}:${name}`, conventionOnly: true }, constant.annotated ? 'annotated' : 'not annotated');
    }
  }
  for (const [alias, byProvider] of [...aliases].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const { provider, outline } of subjects) {
      const own = byProvider.get(provider);
      const inline = signatures(outline).some((signature) => signature.includes(alias));
      if (!own && !inline) continue;
      add(provider, { subject: alias, facet: 'type-alias', describe: `the type ${alias}: an alias or written out`, placeKey: (p) => {
            const constant = byProvider.get(p);
            if (constant) return `const:${constant.file}:${constant.name}`;
            const writer = runtimeDefs(subjectOf(subjects, p).outline).find((def) => def.outline.signature.includes(alias));
            return writer ? `def:${writer.qualified}` : '';
          } }, own ? `alias ${own.name}` : 'written out');
    }
  }
}

export const CONSTANTS: SourceFamily = { meta: META, extract };
