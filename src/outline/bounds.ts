import type { Tree } from 'web-tree-sitter';
import { MAX_SOURCE_DEPTH } from '../util/limits.js';
import { binding, handleOf } from './binding.js';
import { speedLayers } from '../util/speedLayers.js';

/** Words of a cursor in the transfer buffer (web-tree-sitter 0.27: see binding.ts). */
const CURSOR_WORDS = 4;

/**
 * Where a syntax tree nests deeper than MAX_SOURCE_DEPTH, found with one tree-sitter cursor and no
 * recursion: the outline's walks recurse, and 10,000 nested parentheses overflow the stack. Returns
 * the 1-based line and column of the first node past the limit, or undefined when the tree is fine.
 * Every file of a provider whose outline is not cached passes through here, so the cursor is driven
 * through the module directly (binding.ts): one call per step, the cursor kept in the transfer buffer.
 */
export function tooDeep(tree: Tree): { line: number; column: number } | undefined {
  if (!speedLayers().treeSitterInternals) return tooDeepPublic(tree);
  const wasm = binding.module;
  const at = handleOf(tree);
  wasm._ts_tree_root_node_wasm(at);
  wasm._ts_tree_cursor_new_wasm(at);
  try {
    let depth = 0;
    for (;;) {
      if (depth > MAX_SOURCE_DEPTH) return startOf(at);
      if (wasm._ts_tree_cursor_goto_first_child_wasm(at) === 1) {
        depth += 1;
        continue;
      }
      while (wasm._ts_tree_cursor_goto_next_sibling_wasm(at) !== 1) {
        if (wasm._ts_tree_cursor_goto_parent_wasm(at) !== 1) return undefined;
        depth -= 1;
      }
    }
  } finally {
    wasm._ts_tree_cursor_delete_wasm(at);
  }
}

/** The cursor's node's 1-based line and column: the point comes back in the buffer, over the cursor, which is put back after. */
function startOf(at: number): { line: number; column: number } {
  const wasm = binding.module;
  const word = binding.transfer >> 2;
  const cursor = wasm.HEAP32.slice(word, word + CURSOR_WORDS);
  wasm._ts_tree_cursor_start_position_wasm(at);
  const row = wasm.HEAP32[word]!;
  const column = wasm.HEAP32[word + 1]!;
  wasm.HEAP32.set(cursor, word);
  return { line: row + 1, column: column + 1 };
}

/** tooDeep through web-tree-sitter's public TreeCursor. */
function tooDeepPublic(tree: Tree): { line: number; column: number } | undefined {
  const cursor = tree.walk();
  try {
    let depth = 0;
    for (;;) {
      if (depth > MAX_SOURCE_DEPTH) {
        const { row, column } = cursor.startPosition;
        return { line: row + 1, column: column + 1 };
      }
      if (cursor.gotoFirstChild()) {
        depth += 1;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return undefined;
        depth -= 1;
      }
    }
  } finally {
    cursor.delete();
  }
}
