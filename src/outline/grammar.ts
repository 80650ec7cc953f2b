import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import type { Language, Query } from 'web-tree-sitter';
import { DriftError } from '../errors.js';
import { bindingReady, moduleFor } from './binding.js';
import { matchFacts } from './matches.js';
import type { ParseText, QueryFact } from './types.js';

/**
 * Edge module: loads tree-sitter grammars (WebAssembly) and the outline's queries for the outliner.
 * Each language is one entry here, a folder of `.scm` queries (one fact each, under `queries/`) and
 * one reducer beside python.ts; everything above works on the reducer's output.
 *
 * The Python grammar is the `.wasm` the tree-sitter-python package ships (the one in
 * tree-sitter-wasms does not load in current web-tree-sitter).
 */
export const GRAMMARS: Readonly<Record<string, { language: string; wasm: string; queries: string }>> = {
  '.py': { language: 'python', wasm: 'tree-sitter-python/tree-sitter-python.wasm', queries: 'python' },
};

/** `queries/` beside `src/` and `dist/`: both sit one folder below the package root. */
const QUERIES = fileURLToPath(new URL('../../queries/', import.meta.url));

const require = createRequire(import.meta.url);
let initialized: Promise<void> | undefined;

const parsers = new Map<string, Promise<ParseText>>();

/**
 * How many patterns a query source holds: its top-level forms, `(…)` or an alternation `[…]`, with
 * `;` comments and strings skipped. Counting beats compiling each file once more only to ask.
 */
function patternCount(source: string): number {
  let depth = 0;
  let count = 0;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === ';') {
      while (index < source.length && source[index] !== '\n') index++;
    } else if (char === '"') {
      for (index++; index < source.length && source[index] !== '"'; index++) if (source[index] === '\\') index++;
    } else if (char === '(' || char === '[') {
      if (depth === 0) count++;
      depth++;
    } else if (char === ')' || char === ']') {
      depth--;
    }
  }
  return count;
}

/**
 * The language's queries, one fact per `.scm` file, compiled into one query so that a file's tree is
 * matched in one pass; each pattern knows its file (`call.scm` → `call`).
 */
function loadQueries(QueryOf: typeof Query, language: Language, folder: string): { query: Query; names: string[] } {
  const dir = path.join(QUERIES, folder);
  const names: string[] = [];
  const sources: string[] = [];
  const files = queryFiles(dir);
  for (const file of files) {
    const source = readFileSync(path.join(dir, file), 'utf8');
    for (let index = patternCount(source); index > 0; index--) names.push(file.slice(0, -'.scm'.length));
    sources.push(source);
  }
  let query: Query;
  try {
    query = new QueryOf(language, sources.join('\n'));
  } catch (error) {
    // Which file: each compiled alone names the first that fails. drift's own install is broken: exit 2.
    const file = files.find((_name, index) => !compiles(QueryOf, language, sources[index]!)) ?? '';
    throw new DriftError(`${path.join(dir, file)}: drift's outline query does not compile (${(error as Error).message}); reinstall drift or fix the query`, { cause: error });
  }
  if (query.predicates.length !== names.length) throw new Error(`${dir}: ${names.length} patterns counted in the .scm files, ${query.predicates.length} compiled`);
  return { query, names };
}

function compiles(QueryOf: typeof Query, language: Language, source: string): boolean {
  try {
    new QueryOf(language, source).delete();
    return true;
  } catch {
    return false;
  }
}

const queryFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.scm')).sort();

/**
 * What the outline of a file of `extension` depends on beyond drift's build and the source itself:
 * the text of every query (they ship beside dist/, not in it) and the parser's and grammar's
 * package versions. Part of the outline cache's key (pipeline/sourceCache.ts).
 */
export function outlinerIdentity(extension: string): string {
  const grammar = GRAMMARS[extension];
  if (!grammar) return `no grammar for ${extension}`;
  const dir = path.join(QUERIES, grammar.queries);
  const queries = queryFiles(dir).map((file) => `${file}\u0000${readFileSync(path.join(dir, file), 'utf8')}`);
  return [`web-tree-sitter ${packageVersion('web-tree-sitter')}`, `${grammar.wasm} ${packageVersion(grammar.wasm.split('/')[0]!, grammar.wasm)}`, ...queries].join('\u0000');
}

/**
 * A package's version from its package.json, found above its entry point: web-tree-sitter's
 * `exports` do not include its package.json, so `require.resolve('web-tree-sitter/package.json')` fails.
 */
function packageVersion(name: string, entry = name): string {
  let dir = path.dirname(require.resolve(entry));
  for (; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (json.name === name && json.version) return json.version;
    } catch {
      // not this folder: go up
    }
  }
  throw new DriftError(`cannot find the version of ${name}: reinstall drift`);
}

/** A parser for the language of `extension` (e.g. `.py`) with its queries, each loaded once per process. */
export function parserFor(extension: string): Promise<ParseText> {
  const grammar = GRAMMARS[extension];
  if (!grammar) throw new Error(`no grammar for ${extension} files`);
  let parser = parsers.get(grammar.language);
  if (!parser) {
    parser = (async () => {
      // Loaded on the first parse, not with the module: a run whose outlines all come from the cache never loads it.
      // Baseline-compiled WebAssembly only: a drift run parses a few dozen files once, and V8's
      // optimizing recompile of tree-sitter's hot functions, in background threads, cost more CPU than
      // it saved (docs/style.md, "Cost"). Set before the grammar's module is compiled.
      setFlagsFromString('--liftoff-only');
      const { Language, Parser, Query } = await import('web-tree-sitter');
      // Given the object that becomes the WebAssembly module: the outline's hot loops call it directly (binding.ts).
      // Its WebAssembly found through its package, not beside the file it runs from: drift's bundle carries web-tree-sitter's code (scripts/bundle.mjs).
      initialized ??= Parser.init(Object.assign(moduleFor(Parser), { locateFile: (file: string) => (file === 'web-tree-sitter.wasm' ? require.resolve('web-tree-sitter/web-tree-sitter.wasm') : file) })).then(bindingReady);
      await initialized;
      const language = await Language.load(readFileSync(require.resolve(grammar.wasm)));
      // Compiled on the first match, not with the grammar: the sources' depth check parses every file
      // in every run, and a run whose outlines come from the cache never matches a query.
      let queries: ReturnType<typeof loadQueries> | undefined;
      const instance = new Parser();
      instance.setLanguage(language);
      return (text: string) => {
        const tree = instance.parse(text);
        if (!tree) throw new Error('tree-sitter returned no tree');
        // Matched on demand, while the tree lives: a caller that only walks the tree pays nothing for them.
        const facts = (): QueryFact[] => {
          const { query, names } = (queries ??= loadQueries(Query, language, grammar.queries));
          return matchFacts(query, names, tree, text);
        };
        return { tree, facts };
      };
    })();
    parsers.set(grammar.language, parser);
  }
  return parser;
}
