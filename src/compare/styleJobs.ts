import type { FunctionOutline, Outline } from '../outline/types.js';

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
 * - for a helper that reads none of the request (a body builder), whom it **serves** in the call graph
 *   from the entry point: the one role composer (by the roles it composes) or the entry point that
 *   reaches it through other helpers, or `shared` when two or more do. A helper that reads the
 *   request is the same helper wherever it is used: which composers need an observed fact is the
 *   cloud's business. A function the entry point calls directly that composes nothing is a *phase* of the entry
 *   point (writing the status, marking readiness): its job is what it returns and reads itself.
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
export function returnKind(signature: string, records: ReadonlyMap<string, string>): string {
  const arrow = signature.lastIndexOf(') -> ');
  if (arrow < 0) return 'unannotated';
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

/** What a `self` attribute stands for in the request. */
function requestPart(attribute: string): string {
  if (/observed/.test(attribute)) return 'observed';
  if (attribute === 'desired' || attribute === 'rsp' || attribute === 'response') return 'desired';
  if (/credential|provider_config|required/.test(attribute)) return 'credentials';
  return 'xr';
}

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
  const phases = new Set(defs.filter((def) => entry.has(def.name)).flatMap((def) => calls(def)).filter((name) => !composers.has(name) && !entry.has(name)));
  const direct = (def: Def) => new Set((def.outline.reads ?? []).map(requestPart).filter((part) => part !== 'xr'));
  // What a helper reads, itself or through the helpers it calls (a fixpoint: the call graph may loop).
  const reads = new Map(defs.map((def) => [def.name, direct(def)]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const def of defs) {
      if (phases.has(def.name)) continue;
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
  // Whom a helper serves: the composers and phases that reach it through other helpers.
  const callers = new Map<string, string[]>();
  for (const def of defs) for (const name of calls(def)) callers.set(name, [...(callers.get(name) ?? []), def.name]);
  const serves = (name: string): string => {
    const reachers = new Set<string>();
    const seen = new Set<string>([name]);
    const queue = [...(callers.get(name) ?? [])];
    while (queue.length > 0) {
      const caller = queue.shift()!;
      if (seen.has(caller)) continue;
      seen.add(caller);
      if (composers.has(caller)) reachers.add([...composers.get(caller)!].map((role) => (role.startsWith('cloud:') ? 'a cloud-only resource' : role)).sort().join(' and '));
      else if (entry.has(caller) || phases.has(caller)) reachers.add('the entry point');
      else queue.push(...(callers.get(caller) ?? []));
    }
    if (reachers.size >= 2) return 'shared';
    return [...reachers][0] ?? 'nothing';
  };
  // Helpers live beside the composers: in a module that holds one (a composer class's methods or module functions).
  const composerFiles = new Set(defs.filter((def) => composers.has(def.name)).map((def) => def.file));
  const helpers = defs
    .filter((def) => !entry.has(def.name) && !composers.has(def.name) && !/^__.*__$/.test(def.name) && composerFiles.has(def.file) && def.name !== 'RunFunction')
    .map((def) => {
      const shape = returnKind(def.outline.signature, records);
      const read = [...reads.get(def.name)!].sort().join(', ') || 'nothing of the request';
      // A helper reading the request is matched by what it returns and reads, wherever it is used; a
      // body builder reading none of it only where it is used, by the same composer.
      const where = phases.has(def.name) ? '; a phase of the entry point' : reads.get(def.name)!.size === 0 ? `; serves ${serves(def.name)}` : '';
      const job = `returns ${asJob(shape)}; reads ${read}${where}`;
      return { ...def, job, shape, phase: phases.has(def.name), readsRequest: reads.get(def.name)!.size > 0, reads: [...reads.get(def.name)!].sort() };
    });
  return { helpers, entry };
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
