import type { Tree } from 'web-tree-sitter';
import { MAX_SOURCE_DEPTH } from '../util/limits.js';

/**
 * Where a syntax tree nests deeper than MAX_SOURCE_DEPTH, found with one tree-sitter cursor and no
 * recursion: the outline's walks recurse, and 10,000 nested parentheses overflow the stack. Returns
 * the 1-based line and column of the first node past the limit, or undefined when the tree is fine.
 */
export function tooDeep(tree: Tree): { line: number; column: number } | undefined {
  const cursor = tree.walk();
  try {
    let depth = 0;
    for (;;) {
      if (depth > MAX_SOURCE_DEPTH) return { line: cursor.startPosition.row + 1, column: cursor.startPosition.column + 1 };
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
