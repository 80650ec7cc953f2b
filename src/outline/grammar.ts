import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ParseText } from './outline.js';

/**
 * Edge module: loads tree-sitter grammars (WebAssembly) for the outliner. Each language is one entry
 * here plus one reducer beside python.ts; everything above works on the reducer's output.
 *
 * The Python grammar is the `.wasm` the tree-sitter-python package ships (the one in
 * tree-sitter-wasms does not load in current web-tree-sitter).
 */
export const GRAMMARS: Readonly<Record<string, { language: string; wasm: string }>> = {
  '.py': { language: 'python', wasm: 'tree-sitter-python/tree-sitter-python.wasm' },
};

const require = createRequire(import.meta.url);
let initialized: Promise<void> | undefined;
const parsers = new Map<string, Promise<ParseText>>();

/** A parser for the language of `extension` (e.g. `.py`), loaded once per process. */
export function parserFor(extension: string): Promise<ParseText> {
  const grammar = GRAMMARS[extension];
  if (!grammar) throw new Error(`no grammar for ${extension} files`);
  let parser = parsers.get(grammar.language);
  if (!parser) {
    parser = (async () => {
      // Loaded on the first parse, not with the module: a run whose outlines all come from the cache never loads it.
      const { Language, Parser } = await import('web-tree-sitter');
      initialized ??= Parser.init();
      await initialized;
      const language = await Language.load(readFileSync(require.resolve(grammar.wasm)));
      const instance = new Parser();
      instance.setLanguage(language);
      return (text: string) => {
        const tree = instance.parse(text);
        if (!tree) throw new Error('tree-sitter returned no tree');
        return tree;
      };
    })();
    parsers.set(grammar.language, parser);
  }
  return parser;
}
