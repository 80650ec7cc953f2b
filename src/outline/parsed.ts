import type { ParseText, SourceText } from './types.js';

type Parsed = ReturnType<ParseText>;

/**
 * Trees parsed once per source file: reading the sources parses every file for its depth check
 * (read.ts), and the outline, built later from the same SourceText, takes that tree instead of
 * parsing the file again. A tree nobody takes (the outline came from the cache, or a later file was
 * refused) is freed when its SourceText is collected: trees live in the WebAssembly heap.
 */
const kept = new WeakMap<SourceText, Parsed>();
const unclaimed = new FinalizationRegistry<Parsed>((parsed) => parsed.tree.delete());

export function keepParsed(source: SourceText, parsed: Parsed): void {
  kept.set(source, parsed);
  unclaimed.register(source, parsed, source);
}

/** The tree kept for `source`, now the caller's to delete; undefined when none was kept. */
export function takeParsed(source: SourceText): Parsed | undefined {
  const parsed = kept.get(source);
  if (!parsed) return undefined;
  kept.delete(source);
  unclaimed.unregister(source);
  return parsed;
}
