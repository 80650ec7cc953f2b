import type { FunctionOutline, Outline } from '../../outline/types.js';

/**
 * Helpers matched by job, not by name (docs/style.md, "Helpers by job"). A helper's job is what a
 * reader can tell of it without its name:
 *
 * - what it **returns**: the return annotation's kind (`None`, `bool`, `str`, `list`, `Any`, ...),
 *   with every record shape (a `dict`, a tuple, a dataclass, a NamedTuple, a TypedDict) read as
 *   `record`, so the same job in another data shape still matches (the data shape is its own facet);
 * - what it **reads** of the request, through the composer's state, itself or through the helpers it
 *   calls: `observed` (observed resources), `desired` (the response), `credentials` (the XR's
 *   credentials and the required ProviderConfig), `xr` (anything else read from the XR's spec);
 *   The request is found by data flow in the outline (`request` on each def), whatever names it is
 *   read through.
 * - A function the entry point calls directly that composes nothing and returns nothing is a *phase*
 *   of the entry point (writing the status, marking readiness); one returning a value is a query,
 *   a helper like any other.
 *
 * A job is a property of the helper, never of its callers: several helpers may share one (the body
 * builders that read nothing of the request), and `pairHelpers` pairs them provider to provider by
 * name, then by signature, so that two providers with the same helpers plus one extra differ by that
 * one.
 *
 * What a helper reads of the XR's spec (a region, the pools) is left out: every body builder reads
 * some, and which fields is the cloud's business.
 *
 * Two providers' helpers with the same job are the same helper, whatever they are called. Role
 * composers are matched by role (style.ts) and the entry point by being the entry point, so neither
 * counts as a helper here.
 */

export interface Def {
  /** `Composer._desire` or `main`. */
  qualified: string;
  name: string;
  file: string;
  /** The class holding it, when it is a method. */
  owner?: string;
  outline: FunctionOutline;
}

export interface Helper extends Def {
  job: string;
  /** The kind the return annotation names, before records are merged: `dict`, `dataclass`, `tuple`, ... */
  shape: string;
  /** Called directly by the entry point, composing nothing. */
  phase: boolean;
  /** Reads the observed or desired state or the credentials, itself or through what it calls. */
  readsRequest: boolean;
  /** What of the request it reads, itself or through what it calls (`observed`, `desired`, `credentials`). */
  reads: string[];
}

/** Every function and method of the provider's runtime modules, in file then source order. */
export function runtimeDefs(outline: Outline): Def[] {
  const out: Def[] = [];
  for (const [file, module] of Object.entries(outline.files)) {
    if (module.kind !== 'module') continue;
    for (const name of module.order) {
      const fn = module.functions[name];
      if (fn) out.push({ qualified: name, name, file, outline: fn });
      const cls = module.classes[name];
      for (const method of cls?.order ?? []) out.push({ qualified: `${name}.${method}`, name: method, file, owner: name, outline: cls!.methods[method]! });
    }
  }
  return out;
}

/** Record classes (`@dataclass class Pool`) and type aliases the provider defines, by name, with the kind each is. */
function recordClasses(outline: Outline): Map<string, string> {
  const out = new Map<string, string>();
  for (const module of Object.values(outline.files)) {
    for (const [name, cls] of Object.entries(module.classes)) if (cls.shape) out.set(name, cls.shape);
    // A type alias stands for what it names: `Manifest = dict[str, Any]` is a dict.
    for (const [name, constant] of Object.entries(module.constants)) if (constant.alias !== undefined) out.set(name, constant.alias.replace(/\[.*$/, '').trim());
  }
  return out;
}

/** The kind a return annotation names: `dict[str, Any] | None` → `dict | None`, a record class → its shape. */
export function returnKind(signature: string, records: ReadonlyMap<string, string>, returns?: string): string {
  const arrow = signature.lastIndexOf(') -> ');
  // Unannotated: what the outline saw it return (`None` when no return hands back a value).
  if (arrow < 0) return returns ?? 'unannotated';
  const text = signature.slice(arrow + ') -> '.length);
  const parts = text.split('|').map((part) => part.trim().replace(/\[.*$/, '').replace(/^(typing|t)\./, ''));
  return parts.map((part) => records.get(part) ?? part.replace(/^(Dict|Mapping)$/, 'dict').replace(/^(Tuple)$/, 'tuple').replace(/^(List|Sequence)$/, 'list')).join(' | ');
}

const RECORDS = new Set(['dict', 'tuple', 'dataclass', 'namedtuple', 'typeddict']);
const asJob = (kind: string) =>
  kind
    .split(' | ')
    .map((part) => (RECORDS.has(part) ? 'record' : part))
    .join(' | ');

/**
 * What a read of the request (the outline's data flow) counts as in a job: the response's results
 * are written through it as its desired state is, and what a helper reads of the XR itself (a
 * region, the pools) or of the request as a whole is left out.
 */
const JOB_PART: Readonly<Record<string, string | undefined>> = { observed: 'observed', desired: 'desired', response: 'desired', credentials: 'credentials', context: 'context' };

const callee = (call: string) => call.replace(/\?$/, '');

/**
 * The provider's helpers, each with its job. `composers` are the role-composing functions' own
 * names with their roles (a cloud-only composer's role starts with `cloud:`). The entry point is the
 * constructor and the function calling composers of two or more roles; what it calls directly that
 * composes nothing is a *phase* of it (write the status, mark readiness, require credentials).
 */
export function helpersOf(outline: Outline, composers: ReadonlyMap<string, ReadonlySet<string>>): { helpers: Helper[]; entry: Set<string> } {
  const defs = runtimeDefs(outline);
  const byName = new Map(defs.map((def) => [def.name, def]));
  const records = recordClasses(outline);
  const calls = (def: Def) => (def.outline.calls ?? []).map(callee).filter((name) => byName.has(name));
  const entry = new Set(
    defs.filter((def) => def.name === '__init__' || new Set(calls(def).flatMap((name) => [...(composers.get(name) ?? [])])).size >= 2).map((def) => def.name),
  );
  // A phase is a step of the reconcile (it returns nothing); a query the entry point asks (`observed_ready`) is a helper.
  const returnsNothing = (name: string) => ['None', 'unannotated'].includes(returnKind(byName.get(name)!.outline.signature, records, byName.get(name)!.outline.returns));
  // Called by the entry point alone: a writer the composers call too (`_desire`) is a helper.
  const calledOnlyByEntry = (name: string) => defs.every((def) => entry.has(def.name) || !calls(def).includes(name));
  const phases = new Set(defs.filter((def) => entry.has(def.name)).flatMap((def) => calls(def)).filter((name) => !composers.has(name) && !entry.has(name) && returnsNothing(name) && calledOnlyByEntry(name)));
  const direct = (def: Def) => new Set((def.outline.request ?? []).flatMap((part) => JOB_PART[part] ?? []));
  // What a helper reads, itself or through the helpers it calls (a fixpoint: the call graph may loop).
  const reads = new Map(defs.map((def) => [def.name, direct(def)]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const def of defs) {
      const own = reads.get(def.name)!;
      for (const name of calls(def)) {
        if (entry.has(name) || composers.has(name) || phases.has(name)) continue;
        for (const part of reads.get(name) ?? []) {
          if (!own.has(part)) {
            own.add(part);
            changed = true;
          }
        }
      }
    }
  }
  // Helpers live beside the composers: in a module that holds one (a composer class's methods or module functions).
  const composerFiles = new Set(defs.filter((def) => composers.has(def.name)).map((def) => def.file));
  const helpers = defs
    .filter((def) => !entry.has(def.name) && !composers.has(def.name) && !/^__.*__$/.test(def.name) && composerFiles.has(def.file) && def.name !== 'RunFunction')
    .map((def) => {
      const shape = returnKind(def.outline.signature, records, def.outline.returns);
      const read = [...reads.get(def.name)!].sort().join(', ') || 'nothing of the request';
      // What the helper is, not who calls it: which composers use a body builder is the cloud's business,
      // and the helpers of one job are paired one by one (pairHelpers).
      const job = `returns ${asJob(shape)}; reads ${read}${phases.has(def.name) ? '; a phase of the entry point' : ''}`;
      return { ...def, job, shape, phase: phases.has(def.name), readsRequest: reads.get(def.name)!.size > 0, reads: [...reads.get(def.name)!].sort() };
    });
  return { helpers, entry };
}

/** The helpers of one job that are the same helper in several providers, by provider. */
export interface HelperPair {
  job: string;
  /** The name most of them have (ties: the first in order). */
  name: string;
  members: Map<string, Helper>;
}

/** A signature's parameter annotations without their names (the return is the job's): `(self, key: str) -> bool` → `(str)`. */
export function typedSignature(def: Def): string {
  const signature = def.outline.signature;
  const params = splitTop(signature.slice(1, signature.lastIndexOf(')'))).filter((param) => !/^(self|cls)\b/.test(param));
  const types = params.map((param) => (param.startsWith('**') ? '**' : param.startsWith('*') ? '*' : '') + (/:\s*([^=]+)/.exec(param)?.[1]?.trim() ?? '?'));
  return `(${types.join(', ')})`;
}

const bareName = (name: string) => name.replace(/^_+/, '');

/**
 * The helpers of each job paired across providers: a helper joins the pair holding one of the same
 * name (leading underscores aside); one that reads the request, else one of the same annotated
 * signature, else, the provider's one such helper left over, the one pair it is missing from; any
 * other starts a pair of its own.
 * Providers in order, helpers in source order, so the pairing is the same every run.
 */
export function pairHelpers(jobs: ReadonlyMap<string, ReadonlyMap<string, readonly Helper[]>>): HelperPair[] {
  const byJob = new Map<string, HelperPair[]>();
  for (const provider of [...jobs.keys()].sort()) {
    for (const [job, own] of jobs.get(provider)!) {
      const pairs = byJob.get(job) ?? [];
      byJob.set(job, pairs);
      const open = () => pairs.filter((pair) => !pair.members.has(provider));
      const left: Helper[] = [];
      for (const helper of own) {
        const pair = open().find((candidate) => [...candidate.members.values()].some((member) => bareName(member.name) === bareName(helper.name)));
        if (pair) pair.members.set(provider, helper);
        else left.push(helper);
      }
      // A body builder (reading nothing of the request) pairs by name only: its signature, a dict in and
      // a dict out, says little, and which bodies a cloud builds with helpers is its own business.
      const rest: Helper[] = [];
      for (const helper of left) {
        if (!helper.readsRequest) {
          pairs.push({ job, name: '', members: new Map([[provider, helper]]) });
          continue;
        }
        const pair = open().find((candidate) => [...candidate.members.values()].some((member) => typedSignature(member) === typedSignature(helper)));
        if (pair) pair.members.set(provider, helper);
        else rest.push(helper);
      }
      if (rest.length === 1 && open().length === 1) open()[0]!.members.set(provider, rest.pop()!);
      for (const helper of rest) pairs.push({ job, name: '', members: new Map([[provider, helper]]) });
    }
  }
  const out: HelperPair[] = [];
  for (const [job, pairs] of [...byJob].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const pair of pairs) {
      const counts = new Map<string, number>();
      for (const member of pair.members.values()) counts.set(member.name, (counts.get(member.name) ?? 0) + 1);
      out.push({ ...pair, job, name: [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]![0] });
    }
  }
  return out;
}

/** A signature's shape, names, annotations and optional parameters aside: `(2 positional, **kwargs)`. */
export function signatureShape(def: Def): string {
  const inside = def.outline.signature.slice(1, def.outline.signature.lastIndexOf(')'));
  const params = inside.length === 0 ? [] : splitTop(inside).filter((param) => !/^(self|cls)\b/.test(param));
  const plain = params.filter((param) => !param.startsWith('*') && !param.includes('='));
  // Optional parameters are left out: a cloud may extend a shared helper without changing its calls.
  const parts = [`${plain.length} positional`];
  if (params.some((param) => /^\*[^*]/.test(param))) parts.push('*args');
  if (params.some((param) => param.startsWith('**'))) parts.push('**kwargs');
  return `(${parts.join(', ')})`;
}

/** Splits a parameter list at its top-level commas (annotations hold commas in brackets). */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '[' || char === '(' || char === '{') depth++;
    else if (char === ']' || char === ')' || char === '}') depth--;
    else if (char === ',' && depth === 0) {
      out.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out.filter(Boolean);
}
