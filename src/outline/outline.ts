import { escapeRegExp } from '../util/objects.js';
import { takeParsed } from './parsed.js';
import { nodeAt, toSyntax } from './syntax.js';
import { requestReads } from './requestFlow.js';
import { outlinePythonFile, sortedRecord, type Argument, type FileFacts, type FunctionFact, type Match, type SiteGate } from './python.js';
import { OUTLINE_VERSION, type FunctionOutline, type Idioms, type Outline, type OutlineResult, type ParseText, type Places, type QueryFact, type SourceText, type SwallowedFact } from './types.js';

/**
 * A provider's outline from its source files. Pure given `parse`: the same files give the same
 * outline, whatever order they come in.
 */
export function buildOutline(provider: string, sources: SourceText[], parse: ParseText): OutlineResult {
  const began = performance.now();
  const ordered = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const facts = new Map<string, FileFacts>();
  for (const source of ordered) {
    const { tree, facts: matchQueries } = takeParsed(source) ?? parse(source.text);
    let root;
    let found: QueryFact[];
    try {
      root = toSyntax(tree, source.text);
      found = matchQueries();
    } finally {
      tree.delete(); // trees live in the WebAssembly heap, not in JavaScript's
    }
    const matches: Match[] = [];
    for (const { query, captures } of found) {
      const nodes: Match['nodes'] = {};
      for (const name in captures) {
        const at = captures[name]!;
        nodes[name] = nodeAt(root, at.start, at.end, at.type)!;
      }
      matches.push({ query, nodes });
    }
    facts.set(source.path, outlinePythonFile(source.path, root, matches));
  }
  const places: Places = new Map();
  const place = (key: string, file: string, line: number) => {
    if (!places.has(key)) places.set(key, `${file}:${line}`);
  };
  for (const [file, fileFacts] of facts) {
    place(`file:${file}`, file, 1);
    for (const [key, line] of fileFacts.lines) place(key, file, line);
  }
  // The package is what runs; tests are outlined but do not compose or carry the function's idioms.
  const runtime = [...facts].filter(([, f]) => f.outline.kind === 'module' || f.outline.kind === 'package-marker');
  const functions = runtime.flatMap(([, f]) => f.functions);
  for (const [file, f] of runtime) {
    for (const literal of f.literals) {
      place(`literal:${literal.value}`, file, literal.line);
      place(`literal:${literal.value}@${literal.use}`, file, literal.line);
    }
  }
  const runtimeFiles = new Map(runtime.map(([file, f]) => [file, f]));
  linkRequest(functions, runtimeFiles);
  linkCalls(functions, runtimeFiles);
  const { composes, gates } = composers(functions, place);
  const swallowed = swallowedFacts(runtime, runtimeFiles);
  const idioms: Idioms = { resourceWrite: [], readinessMark: [], readinessBy: [], results: [], readinessShape: [] };
  for (const [file, f] of runtime) {
    for (const form of f.forms) {
      if (!idioms[form.idiom].includes(form.form)) idioms[form.idiom].push(form.form);
      place(`idiom:${form.idiom}:${form.form}`, file, form.line);
    }
  }
  for (const list of Object.values(idioms)) list.sort();
  const outline: Outline = {
    outline: OUTLINE_VERSION,
    provider,
    language: 'python',
    files: Object.fromEntries([...facts].map(([file, f]) => [file, f.outline])),
    idioms,
    composes,
    gates,
  };
  const syntaxErrors = [...facts].flatMap(([file, f]) => (f.syntaxError ? [{ file, ...f.syntaxError }] : []));
  return { outline, places, syntaxErrors, ...(swallowed.length ? { swallowed } : {}), ms: performance.now() - began };
}

/**
 * The handlers that catch every error and swallow it around a read of observed state: the guarded block
 * calls a function of the provider that reads observed state itself or through its own calls, or the
 * function holding the `try` reads it. A narrow `except KeyError:` for an absent fact is not one.
 */
function swallowedFacts(runtime: ReadonlyArray<[string, FileFacts]>, files: ReadonlyMap<string, FileFacts>): SwallowedFact[] {
  const outlines = new Map<string, FunctionOutline[]>();
  for (const [, f] of runtime) {
    for (const fn of f.functions) {
      const out = outlineOf(fn, files.get(fn.file)!);
      if (out) outlines.set(fn.name, [...(outlines.get(fn.name) ?? []), out]);
    }
  }
  const memo = new Map<string, boolean>();
  const readsObserved = (name: string): boolean => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    memo.set(name, false); // a cycle reads nothing more
    const found = (outlines.get(name) ?? []).some((out) => out.request?.includes('observed') || (out.calls ?? []).some((call) => readsObserved(call.replace(/\?$/, ''))));
    memo.set(name, found);
    return found;
  };
  const out: SwallowedFact[] = [];
  for (const [file, f] of runtime) {
    for (const handler of f.handlers) {
      if (!handler.broad || !handler.swallows) continue;
      const reads = handler.calls.filter(readsObserved);
      const own = f.functions.find((fn) => fn.qualified === handler.qualified);
      const ownReads = own ? outlineOf(own, f)?.request?.includes('observed') === true : false;
      if (reads.length || ownReads) out.push({ file, line: handler.line, qualified: handler.qualified, reads });
    }
  }
  return out;
}

/** The outline entry of a function fact: a module function or a class's method. */
function outlineOf(fn: FunctionFact, file: FileFacts): FunctionOutline | undefined {
  const [owner, method] = fn.qualified.split('.');
  return method === undefined ? file.outline.functions[owner!] : file.outline.classes[owner!]?.methods[method];
}

/** What each function reads of the request, found by data flow across the provider's modules, into its outline. */
function linkRequest(functions: FunctionFact[], files: ReadonlyMap<string, FileFacts>): void {
  const fields = new Map<string, string[]>();
  for (const file of files.values()) for (const [name, own] of Object.entries(file.fields)) if (!fields.has(name)) fields.set(name, own);
  for (const [fn, parts] of requestReads(functions, fields)) {
    const out = outlineOf(fn, files.get(fn.file)!);
    if (out && parts.length > 0) out.request = parts;
  }
}

/** Each function's calls of the provider's own functions, into its outline: the call graph a reader follows. */
function linkCalls(functions: FunctionFact[], files: ReadonlyMap<string, FileFacts>): void {
  const defined = new Set(functions.map((fn) => fn.name));
  for (const fn of functions) {
    const out = outlineOf(fn, files.get(fn.file)!);
    if (!out) continue;
    const local = fn.calls.filter((call) => defined.has(call.callee) && call.callee !== fn.name);
    const always = new Set(local.filter((call) => call.gate.kind === 'none').map((call) => call.callee));
    const names = [...new Set(local.map((call) => (always.has(call.callee) ? call.callee : `${call.callee}?`)))].sort();
    if (names.length) out.calls = names;
  }
}

/** A gate in words, as outlines and findings say it. */
function gateText(where: 'composer' | 'call site', gate: SiteGate, helpers: ReadonlySet<string>): string {
  const decided = gate.calls.some((call) => helpers.has(call)) ? ', decided by a helper' : '';
  return `${where}: ${gate.kind === 'if' ? 'if' : 'early return'}${decided}`;
}

/**
 * Which function composes each literal key: the one whose body holds the key and hands it to a
 * writer of desired resources (directly, or through helpers that pass their parameter on).
 * Helpers are resolved by name, so a helper moved to another module is still followed.
 */
function composers(functions: FunctionFact[], place: (key: string, file: string, line: number) => void): { composes: Record<string, string>; gates: Record<string, string> } {
  const byName = new Map<string, FunctionFact[]>();
  for (const fn of functions) byName.set(fn.name, [...(byName.get(fn.name) ?? []), fn]);
  const helpers = new Set(byName.keys());
  const sinks = new Map(functions.map((fn) => [fn, new Set(fn.writesKeyParams)]));
  const argumentAt = (call: FunctionFact['calls'][number], target: FunctionFact, index: number): Argument | undefined =>
    call.args[index] ?? call.keywords[target.params[index] ?? ''];
  // Parameters that reach a writer make their function a writer too, until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const fn of functions) {
      for (const call of fn.calls) {
        for (const target of byName.get(call.callee) ?? []) {
          for (const index of sinks.get(target)!) {
            const argument = argumentAt(call, target, index);
            if (argument?.kind === 'param' && !sinks.get(fn)!.has(argument.index)) {
              sinks.get(fn)!.add(argument.index);
              changed = true;
            }
          }
        }
      }
    }
  }
  const callsOf = new Map<string, Array<{ caller: FunctionFact; call: FunctionFact['calls'][number] }>>();
  for (const caller of functions) {
    for (const call of caller.calls) {
      const list = callsOf.get(call.callee);
      if (list) list.push({ caller, call });
      else callsOf.set(call.callee, [{ caller, call }]);
    }
  }
  const found = new Map<string, Set<string>>();
  const gated = new Map<string, { text: string; file: string; line: number }>();
  const chained = new Set<string>();
  const defOf = (name: string) => byName.get(name)?.[0];
  const note = (pattern: string, fn: FunctionFact, line: number, gate: SiteGate, body?: string) => {
    found.set(pattern, (found.get(pattern) ?? new Set()).add(fn.qualified));
    place(`compose:${pattern}`, fn.file, line);
    // Where the body is made: the local function whose result is written, and the one that finally
    // builds the object (what it returns, followed), e.g. `_node_pool` then `_cloud`.
    const builder = body === undefined ? undefined : defOf(body);
    if (builder) {
      place(`body:${pattern}`, builder.file, builder.line);
      let envelope = builder;
      for (const seen = new Set([envelope]); envelope.returnsCalls.length === 1; ) {
        const next = defOf(envelope.returnsCalls[0]!);
        if (!next || seen.has(next)) break;
        seen.add(next);
        envelope = next;
      }
      place(`envelope:${pattern}`, envelope.file, envelope.line);
    }
    // Every condition on the way, outermost first: the callers' (when every call is gated), then the composer's own.
    if (!chained.has(pattern)) {
      chained.add(pattern);
      const callers = callsOf.get(fn.name) ?? [];
      const outer = callers.length > 0 && callers.every(({ call }) => call.gate.chain.length > 0) ? callers[0]!.call.gate.chain.map((step) => ({ ...step, file: callers[0]!.caller.file })) : [];
      [...outer, ...gate.chain.map((step) => ({ ...step, file: fn.file }))].forEach((step, index) => place(`gates:${pattern}#${index}:${step.keys.join(',')}`, step.file, step.line));
    }
    // Ungated in its composer: gated where the composer is called, if every call is under a condition.
    let text: string | undefined;
    let at = gate;
    if (gate.kind !== 'none') text = gateText('composer', gate, helpers);
    else {
      const callers = callsOf.get(fn.name) ?? [];
      if (callers.length > 0 && callers.every(({ call }) => call.gate.kind !== 'none')) {
        at = callers[0]!.call.gate;
        text = gateText('call site', at, helpers);
        if (!gated.has(pattern)) gated.set(pattern, { text, file: callers[0]!.caller.file, line: at.line });
        return;
      }
    }
    if (text !== undefined && !gated.has(pattern)) gated.set(pattern, { text, file: fn.file, line: at.line });
  };
  for (const fn of functions) {
    for (const key of fn.writesKeys) note(key.pattern, fn, key.line, key.gate);
    for (const call of fn.calls) {
      for (const target of byName.get(call.callee) ?? []) {
        for (const index of sinks.get(target)!) {
          const argument = argumentAt(call, target, index);
          if (argument?.kind !== 'key') continue;
          const body = [...call.args, ...Object.values(call.keywords)].find((other): other is Extract<Argument, { kind: 'other' }> => other.kind === 'other' && other.call !== undefined)?.call;
          for (const key of argument.patterns) note(key.pattern, fn, key.line, call.gate, body);
        }
      }
    }
  }
  for (const [pattern, gate] of gated) place(`gate:${pattern}`, gate.file, gate.line);
  return {
    composes: sortedRecord(Object.fromEntries([...found].map(([pattern, names]) => [pattern, [...names].sort().join(', ')]))),
    gates: sortedRecord(Object.fromEntries([...gated].map(([pattern, gate]) => [pattern, gate.text]))),
  };
}

/** Whether a composed key is one a pattern from the code stands for (`nodepool-{}` ~ `nodepool-gpu`). */
export function keyMatches(pattern: string, key: string): boolean {
  // Key names, not code: each hole stands for at least one character.
  return new RegExp(`^${pattern.split('{}').map(escapeRegExp).join('.+')}$`).test(key);
}

/** The function composing `key`: an exact literal first, else the most specific pattern. */
export function composerOf(outline: Outline, key: string): { pattern: string; function: string } | undefined {
  const exact = outline.composes[key];
  if (exact !== undefined && !key.includes('{}')) return { pattern: key, function: exact };
  const patterns = Object.keys(outline.composes)
    .filter((pattern) => pattern.includes('{}') && keyMatches(pattern, key))
    .sort((a, b) => b.replaceAll('{}', '').length - a.replaceAll('{}', '').length || (a < b ? -1 : 1));
  const pattern = patterns[0];
  return pattern === undefined ? undefined : { pattern, function: outline.composes[pattern]! };
}
