import type { Tree } from 'web-tree-sitter';

/**
 * The WebAssembly module web-tree-sitter runs on, for the outline's two hot loops: copying a tree
 * (syntax.ts) and reading a query's matches (grammar.ts). web-tree-sitter's classes wrap every call
 * in JavaScript that copies the cursor or node in and out of a transfer buffer, one `getValue` or
 * `setValue` per word; called directly, the cursor stays in that buffer between calls, and a
 * match's captures are read from the heap as they lie. `Parser.init` is given the object that
 * becomes the Emscripten module (Emscripten's `Module` argument), which is how drift holds it.
 *
 * The calls and the buffer's layout are those of web-tree-sitter 0.27 (`lib/tree-sitter.c`: a node
 * is 5 words, a cursor 4, both at the buffer's start); package.json pins it.
 */
export interface Binding {
  HEAP32: Int32Array;
  _ts_init(): number;
  _free(address: number): void;
  _ts_tree_root_node_wasm(tree: number): void;
  _ts_tree_cursor_new_wasm(tree: number): void;
  _ts_tree_cursor_delete_wasm(tree: number): void;
  _ts_tree_cursor_goto_first_child_wasm(tree: number): number;
  _ts_tree_cursor_goto_next_sibling_wasm(tree: number): number;
  _ts_tree_cursor_goto_parent_wasm(tree: number): number;
  _ts_tree_cursor_current_node_type_id_wasm(tree: number): number;
  _ts_tree_cursor_current_field_id_wasm(tree: number): number;
  _ts_tree_cursor_current_node_is_missing_wasm(tree: number): number;
  _ts_tree_cursor_start_index_wasm(tree: number): number;
  _ts_tree_cursor_start_position_wasm(tree: number): void;
  _ts_tree_cursor_end_index_wasm(tree: number): number;
  _ts_node_end_index_wasm(tree: number): number;
  _ts_node_symbol_wasm(tree: number): number;
  _ts_query_matches_wasm(query: number, tree: number, ...range: number[]): void;
}

/** The module object, filled by `Parser.init(module)`, and its transfer buffer's address. */
export const binding = { module: {} as Binding, transfer: 0 };

/**
 * The object to give `Parser.init`, one per copy of web-tree-sitter in the process: web-tree-sitter
 * fills only the object its first `Parser.init` is given and ignores later ones, so a second copy of
 * drift's outline in the same process (the tests load the built drift beside its sources) must call
 * that same object, not an empty one of its own. Keyed by the Parser class: two copies of
 * web-tree-sitter are two modules.
 */
export function moduleFor(parser: object): Binding {
  const slot = Symbol.for('drift.web-tree-sitter.modules');
  const registry = ((globalThis as Record<symbol, WeakMap<object, Binding> | undefined>)[slot] ??= new WeakMap());
  let module = registry.get(parser);
  if (!module) registry.set(parser, (module = binding.module));
  binding.module = module;
  return module;
}

/** After `Parser.init(binding.module)`: where the buffer is (`ts_init` only returns it, and the language versions it holds). */
export function bindingReady(): void {
  binding.transfer = binding.module._ts_init();
  for (const name of ['_ts_tree_cursor_new_wasm', '_ts_query_matches_wasm', 'HEAP32'] as const) {
    if (!(name in binding.module)) throw new Error(`web-tree-sitter's module has no ${name}: drift's outline expects web-tree-sitter 0.27`);
  }
}

/** The address web-tree-sitter's Tree (and Query) objects keep their WebAssembly handle at. */
export function handleOf(object: Tree | object): number {
  return (object as unknown as { 0: number })[0];
}
