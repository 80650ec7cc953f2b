import type { Outline } from '../../outline/types.js';
import type { FacetMeta } from '../meta.js';
import { helpersOf, runtimeDefs, type Def } from './jobs.js';
import { isPrivate, sorted, subjectOf, type AddFacet, type SourceFamily, type SourceSubject } from './subject.js';

/**
 * The composer as a reader walks it: the order of its class's defs (`def-order`), where a helper only
 * one role composer calls sits (`helper-placement`), the kinds of its methods (`method-kinds`) and
 * section banners between its defs (`comment-sections`). Where the role composers are module
 * functions, the modules holding them stand for the class in the last two.
 */

/** Where these facets' values come from. */
const SOURCE = { source: 'outline', scope: 'source', extractor: 'src/facets/source/composerClass.ts' } as const;

const META: readonly FacetMeta[] = [
  {
    id: 'def-order',
    class: 'stylistic',
    ...SOURCE,
    description: 'The order of defs in the composer class.',
    compares: 'the runs of public and private defs (role composers count as public; a helper directly after a def calling it counts with that def)',
    example: 'acme puts a shared private helper between two role composers',
    fix: 'move the def to where the convention has it: shared helpers after the public defs',
  },
  {
    id: 'helper-placement',
    class: 'stylistic',
    ...SOURCE,
    description: 'Where a body builder only one role composer calls sits (a private method of the composer class, or a function of a module holding role composers).',
    compares: 'beside its composer (directly after it) or apart from it',
    example: 'eks kept `_node_pool` at the end of the class where the others put it after compose_node_pools',
    fix: 'move the helper where the convention keeps it: directly after the composer that calls it, or apart from it',
  },
  {
    id: 'method-kinds',
    class: 'stylistic',
    ...SOURCE,
    description: 'The kinds of method in the composer class.',
    compares: 'instance methods, and any staticmethod, classmethod or property beside them',
    example: 'eks made `_assume_role_policy` a @staticmethod where every other composer method is an instance method',
    fix: 'make it an instance method',
  },
  {
    id: 'comment-sections',
    class: 'stylistic',
    ...SOURCE,
    description: 'Comments standing between the composer’s defs (section banners): in the composer class, else between the module functions of the modules holding the role composers.',
    compares: 'section comments or none',
    example: 'eks split its composer with `# --- helpers ---` banners where the others order defs without them',
    fix: 'drop the banner; the def order says the same',
  },
];

const METHOD_KINDS: ReadonlySet<string> = new Set(['staticmethod', 'classmethod', 'property', 'functools.cached_property', 'cached_property']);

function extract(subjects: readonly SourceSubject[], add: AddFacet): void {
  for (const subject of subjects) {
    const { provider, outline } = subject;
    const defs = runtimeDefs(outline);
    const composerClass = classOfComposers(defs, subject.composers);

    // Def order in the composer class: public and private runs, as a reader meets them, the helpers
    // only one role composer calls aside: where those sit is their own facet.
    if (composerClass) {
      const order = composerOrder(outline, composerClass, subject.composers);
      add(
        provider,
        {
          subject: 'composer',
          facet: 'def-order',
          describe: 'the order of defs in the composer class (public and private runs)',
          placeKey: (p, convention) => {
            const other = subjectOf(subjects, p);
            const own = composerOrder(other.outline, composerClass, other.composers).runs;
            const wanted = convention as string[];
            let run = 0;
            let runStart: Def | undefined;
            for (const def of own) {
              const kind = orderKind(def, other.composers);
              if (wanted[run] !== kind) {
                run++;
                // A private run cut short by a public def: the private defs are the ones out of place.
                if (wanted[run] !== kind) return `def:${(kind === 'public' && runStart && orderKind(runStart, other.composers) === 'private' ? runStart : def).qualified}`;
                runStart = def;
              }
              runStart ??= def;
            }
            return own[0] ? `def:${own[0].qualified}` : '';
          },
        },
        runsOf(order.runs, subject.composers),
      );
    }

    // Where the body builders only one role composer calls sit: methods of the composer class and
    // module functions of the modules holding the composers alike, in the order a reader meets them.
    const placed = builderPlacement(outline, subject.composers);
    if (placed.length > 0) {
      add(
        provider,
        {
          subject: 'composer',
          facet: 'helper-placement',
          describe: 'where a helper only one role composer calls sits',
          // The way the convention goes: a helper already right after its composer is never told to move there.
          fix: (convention) => ((convention as string[]).includes('beside its composer') ? 'move the helper directly after the composer that calls it' : 'move the helper away from its composer, where the others keep such helpers'),
          placeKey: (p, convention) => {
            const other = subjectOf(subjects, p);
            const theirs = builderPlacement(other.outline, other.composers);
            const odd = theirs.find((entry) => !(convention as string[]).includes(entry.where)) ?? theirs[0];
            return odd ? `def:${odd.def.qualified}` : '';
          },
        },
        sorted(placed.map((entry) => entry.where)),
      );
    }

    if (composerClass) {
      // Method kinds in the composer: instance methods, or static and class methods and properties beside them.
      const kinds = (outline: Outline) =>
        runtimeDefs(outline)
          .filter((def) => def.owner === composerClass)
          .map((def) => ({ def, kind: (def.outline.decorators ?? []).find((name) => METHOD_KINDS.has(name)) ?? 'method' }));
      add(
        provider,
        {
          subject: 'composer',
          facet: 'method-kinds',
          describe: 'the kinds of method in the composer class',
          placeKey: (p, convention) => {
            const odd = kinds(subjectOf(subjects, p).outline).find(({ kind }) => !(convention as string[]).includes(kind));
            return odd ? `def:${odd.def.qualified}` : `class:${composerClass}`;
          },
        },
        sorted(kinds(outline).map(({ kind }) => kind)),
      );
    }

    // Comment structure: section banners between the composer's defs (its class's methods, or the
    // module functions of the modules holding module-level role composers), or none.
    const banners = bannersOf(subject);
    if (banners) {
      add(
        provider,
        {
          subject: 'composer',
          facet: 'comment-sections',
          describe: composerClass ? "comments between the composer class's defs (section banners)" : "comments between the composer module's functions (section banners)",
          placeKey: (p) => bannersOf(subjectOf(subjects, p))?.place ?? '',
        },
        banners.count > 0 ? 'section comments' : 'none',
      );
    }
  }
}

/** A def's kind in the def order: a role composer reads as public, whatever its name (the composer facet judges that). */
const orderKind = (def: Def, composers: ReadonlyMap<string, ReadonlySet<string>>) => (isPrivate(def.name) && !composers.has(def.name) ? 'private' : 'public');

const runsOf = (defs: readonly Def[], composers: ReadonlyMap<string, ReadonlySet<string>>) => {
  const runs: string[] = [];
  for (const def of defs) {
    const kind = orderKind(def, composers);
    if (runs[runs.length - 1] !== kind) runs.push(kind);
  }
  return runs;
};

/**
 * The composer class's defs in order, less the private helpers that directly follow a def calling
 * them (or a fellow helper placed so): those count with that def. The public and private runs of the
 * rest are the def order; where the helpers that only a role composer calls sit is helper-placement's.
 */
function composerOrder(outline: Outline, composerClass: string, composers: ReadonlyMap<string, ReadonlySet<string>>): { runs: Def[] } {
  const methods = runtimeDefs(outline).filter((def) => def.owner === composerClass);
  const beside = besideTheirCallers(methods, (def) => isPrivate(def.name) && !/^__.*__$/.test(def.name) && !composers.has(def.name));
  return { runs: methods.filter((def) => !beside.has(def.qualified) && !/^__.*__$/.test(def.name)) };
}

/** Whether `def` calls `name`, always or under a gate (an outline's `name?`). */
const callsDef = (def: Def, name: string) => (def.outline.calls ?? []).some((call) => call.replace(/\?$/, '') === name);

/**
 * The `candidate` defs of `sequence` (in the order a reader meets them) placed beside a caller, by
 * qualified name: each directly follows a def that calls it, or a fellow candidate so placed.
 */
function besideTheirCallers(sequence: readonly Def[], candidate: (def: Def) => boolean): Set<string> {
  const beside = new Set<string>();
  for (let index = 1; index < sequence.length; index++) {
    const def = sequence[index]!;
    if (!candidate(def)) continue;
    for (let at = index - 1; at >= 0; at--) {
      const before = sequence[at]!;
      if (callsDef(before, def.name)) {
        beside.add(def.qualified);
        break;
      }
      if (!beside.has(before.qualified)) break;
    }
  }
  return beside;
}

/**
 * Section banners among the composer's defs: in the composer class, else at module level in the
 * modules holding the role composers; with the place a finding names (the first banner, else where
 * the composer starts). Undefined when the provider has no composer.
 */
function bannersOf(subject: SourceSubject): { count: number; place: string } | undefined {
  const { outline, composers } = subject;
  const defs = runtimeDefs(outline);
  const composerClass = classOfComposers(defs, composers);
  if (composerClass) {
    const count = Object.values(outline.files).reduce((n, module) => n + (module.classes[composerClass]?.comments ?? 0), 0);
    return { count, place: count > 0 ? `comment:${composerClass}` : `class:${composerClass}` };
  }
  const modules = composerModules(defs, composers);
  if (modules.length === 0) return undefined;
  const count = modules.reduce((n, file) => n + (outline.files[file]?.comments ?? 0), 0);
  const banner = modules.find((file) => (outline.files[file]?.comments ?? 0) > 0);
  return { count, place: banner ? `comment:${banner}` : `def:${defs.find((def) => !def.owner && composers.has(def.name))!.qualified}` };
}

/** The modules holding module-level role composers, sorted. */
const composerModules = (defs: readonly Def[], composers: ReadonlyMap<string, ReadonlySet<string>>) => [...new Set(defs.filter((def) => !def.owner && composers.has(def.name)).map((def) => def.file))].sort();

/**
 * The body builders only one role composer calls (a private method of the composer class, or a
 * function of a module holding role composers), each `beside its composer` when it directly follows
 * the def calling it (or a fellow helper placed so), else `apart from its composer`. Utilities that
 * read the observed or desired state are shared by nature and left out, wherever they are used.
 */
function builderPlacement(outline: Outline, composers: ReadonlyMap<string, ReadonlySet<string>>): Array<{ def: Def; where: string }> {
  const all = runtimeDefs(outline);
  const files = new Set(all.filter((def) => composers.has(def.name)).map((def) => def.file));
  const sequence = all.filter((def) => files.has(def.file));
  const readers = new Set(helpersOf(outline, composers).helpers.filter((helper) => helper.reads.includes('observed') || helper.reads.includes('desired')).map((helper) => helper.name));
  // A method is a helper by its private name; a module function by what calls it, whatever its name.
  const candidate = (def: Def) => !composers.has(def.name) && !/^__.*__$/.test(def.name) && (def.owner === undefined || isPrivate(def.name));
  const beside = besideTheirCallers(sequence, candidate);
  return sequence
    .filter(candidate)
    .filter((def) => {
      const callers = all.filter((other) => callsDef(other, def.name));
      return callers.length === 1 && composers.has(callers[0]!.name) && !readers.has(def.name);
    })
    .map((def) => ({ def, where: beside.has(def.qualified) ? 'beside its composer' : 'apart from its composer' }));
}

/** The class that holds the role composers (the composer), if one does. */
function classOfComposers(defs: readonly Def[], composers: ReadonlyMap<string, ReadonlySet<string>>): string | undefined {
  const counts = new Map<string, number>();
  for (const def of defs) if (def.owner && composers.has(def.name)) counts.set(def.owner, (counts.get(def.owner) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]?.[0];
}


export const COMPOSER_CLASS: SourceFamily = { meta: META, extract };
