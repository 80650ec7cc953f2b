import type { Query, Tree } from 'web-tree-sitter';
import { binding, handleOf } from './binding.js';
import { speedLayers } from '../util/speedLayers.js';
import type { QueryFact } from './types.js';

/** A query's text predicates (`#eq?` and kin), as web-tree-sitter compiled them: each reads only its captures' names and texts. */
type TextPredicate = (captures: Array<{ name: string; node: { text: string } }>) => boolean;

/** Words per node in the transfer layout: id, start index, start row, start column, context. */
const NODE_WORDS = 5;

/**
 * Every match of `query` over the tree, as facts: each capture's range and type. Read straight from
 * the module's heap (binding.ts) rather than through `Query.matches`, which makes a Node object per
 * capture and then pays two more wrapped calls to ask it its end and type. A pattern's text
 * predicates run as `Query.matches` runs them, on the captures' texts sliced from `text`.
 */
export function matchFacts(query: Query, names: readonly string[], tree: Tree, text: string): QueryFact[] {
  if (!speedLayers().treeSitterInternals) return matchFactsPublic(query, names, tree);
  const wasm = binding.module;
  const at = handleOf(tree);
  const transfer = binding.transfer >> 2;
  const { captureNames } = query;
  const { types } = tree.language;
  const predicates = (query as unknown as { textPredicates: readonly (readonly TextPredicate[])[] }).textPredicates;
  wasm._ts_tree_root_node_wasm(at);
  // No range, no containing range, no match limit, no start depth limit: what `Query.matches` passes by default.
  wasm._ts_query_matches_wasm(handleOf(query), at, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1);
  const heap = wasm.HEAP32;
  const count = heap[transfer]!;
  const start = heap[transfer + 1]!;
  const facts: QueryFact[] = [];
  try {
    for (let index = 0, word = start >> 2; index < count; index++) {
      const pattern = heap[word++]!;
      const captureCount = heap[word++]!;
      const tests = predicates[pattern]!;
      // Only a pattern with a text predicate needs every capture, duplicates included, to test.
      const spans: Array<{ name: string; node: { text: string } }> | undefined = tests.length > 0 ? [] : undefined;
      const captures: QueryFact['captures'] = {};
      for (let capture = 0; capture < captureCount; capture++, word += NODE_WORDS + 1) {
        const name = captureNames[heap[word]!]!;
        if (name in captures && !spans) continue;
        // The capture's node into the buffer, to ask its end and type (neither call allocates: the heap stays put).
        heap.copyWithin(transfer, word + 1, word + 1 + NODE_WORDS);
        const from = heap[word + 2]!;
        const end = wasm._ts_node_end_index_wasm(at);
        if (!(name in captures)) captures[name] = { start: from, end, type: types[wasm._ts_node_symbol_wasm(at)] ?? 'ERROR' };
        spans?.push({ name, node: { text: text.slice(from, end) } });
      }
      if (spans && !tests.every((test) => test(spans))) continue;
      facts.push({ query: names[pattern]!, captures });
    }
  } finally {
    wasm._free(start);
  }
  return facts;
}

/** matchFacts through web-tree-sitter's public `Query.matches`, which runs the text predicates itself. */
function matchFactsPublic(query: Query, names: readonly string[], tree: Tree): QueryFact[] {
  return query.matches(tree.rootNode).map((match) => {
    const captures: QueryFact['captures'] = {};
    for (const { name, node } of match.captures) {
      if (!(name in captures)) captures[name] = { start: node.startIndex, end: node.endIndex, type: node.type };
    }
    return { query: names[match.patternIndex]!, captures };
  });
}
