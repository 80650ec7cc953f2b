import type { Tree } from 'web-tree-sitter';
import { escapeRegExp } from '../util/objects.js';
import { toSyntax } from './syntax.js';
import { outlinePythonFile, sortedRecord, type Argument, type FileFacts, type FunctionFact } from './python.js';
import { OUTLINE_VERSION, type Idioms, type Outline, type OutlineResult, type Places, type SourceText } from './types.js';

/** Parses one file's text; the grammar is loaded by the caller (see grammar.ts). */
export type ParseText = (text: string) => Tree;

/**
 * A provider's outline from its source files. Pure given `parse`: the same files give the same
 * outline, whatever order they come in.
 */
export function buildOutline(provider: string, sources: SourceText[], parse: ParseText): OutlineResult {
  const began = performance.now();
  const ordered = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const facts = new Map<string, FileFacts>();
  for (const source of ordered) {
    const tree = parse(source.text);
    let root;
    try {
      root = toSyntax(tree, source.text);
    } finally {
      tree.delete(); // trees live in the WebAssembly heap, not in JavaScript's
    }
    facts.set(source.path, outlinePythonFile(source.path, root));
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
  const composes = composers(functions, place);
  const idioms: Idioms = { resourceWrite: [], readinessMark: [], readinessBy: [], results: [] };
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
  };
  const syntaxErrors = [...facts].flatMap(([file, f]) => (f.syntaxError ? [{ file, ...f.syntaxError }] : []));
  return { outline, places, syntaxErrors, ms: performance.now() - began };
}

/**
 * Which function composes each literal key: the one whose body holds the key and hands it to a
 * writer of desired resources (directly, or through helpers that pass their parameter on).
 * Helpers are resolved by name, so a helper moved to another module is still followed.
 */
function composers(functions: FunctionFact[], place: (key: string, file: string, line: number) => void): Record<string, string> {
  const byName = new Map<string, FunctionFact[]>();
  for (const fn of functions) byName.set(fn.name, [...(byName.get(fn.name) ?? []), fn]);
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
  const found = new Map<string, Set<string>>();
  const note = (pattern: string, fn: FunctionFact, line: number) => {
    found.set(pattern, (found.get(pattern) ?? new Set()).add(fn.qualified));
    place(`compose:${pattern}`, fn.file, line);
  };
  for (const fn of functions) {
    for (const key of fn.writesKeys) note(key.pattern, fn, key.line);
    for (const call of fn.calls) {
      for (const target of byName.get(call.callee) ?? []) {
        for (const index of sinks.get(target)!) {
          const argument = argumentAt(call, target, index);
          if (argument?.kind === 'key') for (const key of argument.patterns) note(key.pattern, fn, key.line);
        }
      }
    }
  }
  return sortedRecord(Object.fromEntries([...found].map(([pattern, names]) => [pattern, [...names].sort().join(', ')])));
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
