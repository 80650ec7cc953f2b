import { composerOf } from '../outline/outline.js';
import type { Outline } from '../outline/types.js';
import { helpersOf, pairHelpers, runtimeDefs, signatureShape, type Def, type Helper } from './styleJobs.js';

/**
 * The style facets of what a reviewer reads in the code beyond names and idioms (docs/style.md):
 * helpers by job (name, visibility, signature shape, docstring, and a job only some providers have),
 * def order in the composer, gate placement, constants by value, type aliases, docstrings on public
 * and role defs, data shapes. Each facet hands style.ts one value per provider and the place to
 * change; style.ts judges them all with the same conventions and splits.
 */

/** What style.ts needs to know of one provider here. */
export interface CodeSubject {
  provider: string;
  outline: Outline;
  /** Composed key → contract role. */
  keys: ReadonlyMap<string, string>;
  /** Role composers by their own name, with the roles they compose. */
  composers: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Whether its runtime code writes `value` as a string literal, for `use` when given (where it goes,
   * as a constant's `usedAs`); for a stand-in's golden only the qualified names it records are known.
   */
  usesLiteral: (value: string, use?: string) => boolean;
}

export interface CodeFacet {
  subject: string;
  facet: string;
  describe: string;
  /** A place key (`def:…`, `const:…`, `gate:…`, `literal:…`) in `provider` for the facet's value. */
  placeKey: (provider: string, convention: unknown) => string;
  /** Judged one way only: a provider holding a value is blamed, one lacking it never (helper presence). */
  presence?: true;
  /** Tells apart facets sharing a subject and facet. */
  key?: string;
  /** Outliers of a convention only, never a split: a value shared by chance (a CIDR) is not one constant. */
  conventionOnly?: true;
  /** The fix when it depends on the convention's value (which way to move a helper); else the facet meta's. */
  fix?: (convention: unknown) => string;
}

export type AddFacet = (provider: string, facet: CodeFacet, value: unknown) => void;

/** A container type written without its parameters, in an annotation. */
const BARE_CONTAINER = /(?::|->)\s*(?:[\w.]+\s*\|\s*)*(?:dict|list|tuple|set)\b(?!\[)/;
const METHOD_KINDS: ReadonlySet<string> = new Set(['staticmethod', 'classmethod', 'property', 'functools.cached_property', 'cached_property']);
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();
const bare = (name: string) => name.replace(/^_+/, '');
const isPrivate = (name: string) => name.startsWith('_');

/** The subject of a provider that takes part: every placeKey is asked only about those. */
function subjectOf(subjects: readonly CodeSubject[], provider: string): CodeSubject {
  return subjects.find((subject) => subject.provider === provider)!;
}

/** Each provider's helpers by job, computed once. */
function jobsOf(subject: CodeSubject): Map<string, Helper[]> {
  const out = new Map<string, Helper[]>();
  for (const helper of helpersOf(subject.outline, subject.composers).helpers) out.set(helper.job, [...(out.get(helper.job) ?? []), helper]);
  return out;
}

export function codeFacets(subjects: readonly CodeSubject[], add: AddFacet): void {
  const jobs = new Map(subjects.map((subject) => [subject.provider, jobsOf(subject)]));
  // Helper by helper: each pair of one job is compared on its own, so one extra helper is one finding.
  for (const pair of pairHelpers(jobs)) {
    const subject = pair.name;
    const key = `${pair.job}: ${subject}`;
    const place = (p: string) => {
      const helper = pair.members.get(p);
      return helper ? `def:${helper.qualified}` : '';
    };
    const describe = `the helper that ${pair.job.replace(/; /g, ', ')}`;
    for (const [provider, helper] of pair.members) {
      add(provider, { subject, key, facet: 'helper-name', describe: `${describe}: its name`, placeKey: place }, bare(helper.name));
      add(provider, { subject, key, facet: 'helper-visibility', describe: `${describe}: public or private`, placeKey: place }, isPrivate(helper.name) ? 'private' : 'public');
      add(provider, { subject, key, facet: 'helper-signature', describe: `${describe}: its signature's shape`, placeKey: place }, signatureShape(helper));
      add(provider, { subject, key, facet: 'helper-docstring', describe: `${describe}: a docstring`, placeKey: place }, helper.outline.docstring ? 'documented' : 'undocumented');
      add(provider, { subject, key, facet: 'data-shape', describe: `${describe}: the shape of what it returns`, placeKey: place }, helper.shape);
    }
    // A helper only some providers have: blamed on those that have it when a convention lacks it. Only a
    // helper that reads the request's state is judged so: a body builder that reads the spec alone
    // (an IAM policy document, a zone name) is how that cloud spells its resources.
    if (![...pair.members.values()].some((helper) => helper.readsRequest && !helper.phase)) continue;
    for (const { provider } of subjects) {
      add(provider, { subject, facet: 'helper-presence', describe: `a helper that ${pair.job.replace(/; /g, ', ')}`, placeKey: place, presence: true, key }, pair.members.has(provider) ? 'defined' : 'absent');
    }
  }

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
      if (order.placed.length > 0) {
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
              const placed = composerOrder(other.outline, composerClass, other.composers).placed;
              const odd = placed.find((entry) => !(convention as string[]).includes(entry.where)) ?? placed[0];
              return odd ? `def:${odd.def.qualified}` : '';
            },
          },
          sorted(order.placed.map((entry) => entry.where)),
        );
      }
    }

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
      // Comment structure: section banners between the composer's defs, or none.
      const comments = sectionComments(outline, composerClass);
      add(
        provider,
        {
          subject: 'composer',
          facet: 'comment-sections',
          describe: 'comments between the composer class\'s defs (section banners)',
          placeKey: (p) => (sectionComments(subjectOf(subjects, p).outline, composerClass) > 0 ? `comment:${composerClass}` : `class:${composerClass}`),
        },
        comments > 0 ? 'section comments' : 'none',
      );
    }

    // Gate placement, per contract role: where the condition that holds back its composition is checked.
    const byRole = new Map<string, { text: string; pattern: string }>();
    for (const [key, role] of [...subject.keys].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const found = composerOf(outline, key);
      const gate = found ? outline.gates[found.pattern] : undefined;
      if (gate && !byRole.has(role)) byRole.set(role, { text: gate, pattern: found!.pattern });
    }
    for (const [role, gate] of byRole) {
      add(
        provider,
        {
          subject: role,
          facet: 'gate-placement',
          describe: `where the gate of ${role} is checked`,
          placeKey: (p) => {
            const other = subjectOf(subjects, p);
            for (const [key, r] of other.keys) {
              const found = r === role ? composerOf(other.outline, key) : undefined;
              if (found && other.outline.gates[found.pattern]) return `gate:${found.pattern}`;
            }
            return '';
          },
        },
        gate.text,
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
  constantFacets(subjects, add);
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
 * The composer class's defs in order, split: a private helper that directly follows a def calling it
 * (or a fellow helper placed so) sits `beside its caller`; the rest, whose public and private runs
 * are the def order, hold the helpers `at the end` or elsewhere. The runs of the rest are the def
 * order; the placement of the helpers that only a role composer calls is its own facet.
 */
function composerOrder(outline: Outline, composerClass: string, composers: ReadonlyMap<string, ReadonlySet<string>>): { runs: Def[]; placed: Array<{ def: Def; where: string }> } {
  const methods = runtimeDefs(outline).filter((def) => def.owner === composerClass);
  // Utilities that look up the observed or desired state are shared by nature, wherever they are used.
  const readers = new Set(helpersOf(outline, composers).helpers.filter((helper) => helper.reads.includes('observed') || helper.reads.includes('desired')).map((helper) => helper.name));
  const calls = (def: Def, name: string) => (def.outline.calls ?? []).some((call) => call.replace(/\?$/, '') === name);
  const beside = new Set<string>();
  for (let index = 1; index < methods.length; index++) {
    const def = methods[index]!;
    if (!isPrivate(def.name) || /^__.*__$/.test(def.name) || composers.has(def.name)) continue;
    for (let at = index - 1; at >= 0; at--) {
      const before = methods[at]!;
      if (calls(before, def.name)) {
        beside.add(def.name);
        break;
      }
      if (!beside.has(before.name)) break;
    }
  }
  const placed = methods
    .filter((def) => isPrivate(def.name) && !composers.has(def.name) && !/^__.*__$/.test(def.name))
    .filter((def) => {
      // Body builders only.
      const callers = methods.filter((other) => calls(other, def.name));
      return callers.length === 1 && composers.has(callers[0]!.name) && !readers.has(def.name);
    })
    .map((def) => ({ def, where: beside.has(def.name) ? 'beside its composer' : 'apart from its composer' }));
  return { runs: methods.filter((def) => !beside.has(def.name) && !/^__.*__$/.test(def.name)), placed };
}

const sectionComments = (outline: Outline, composerClass: string) => Object.values(outline.files).reduce((n, module) => n + (module.classes[composerClass]?.comments ?? 0), 0);

/** The class that holds the role composers (the composer), if one does. */
function classOfComposers(defs: readonly Def[], composers: ReadonlyMap<string, ReadonlySet<string>>): string | undefined {
  const counts = new Map<string, number>();
  for (const def of defs) if (def.owner && composers.has(def.name)) counts.set(def.owner, (counts.get(def.owner) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]?.[0];
}

/** Constants matched by value: the same string named the same way, or written as a literal; type aliases. */
function constantFacets(subjects: readonly CodeSubject[], add: AddFacet): void {
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
