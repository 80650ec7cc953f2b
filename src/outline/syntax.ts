import type { Language, Tree } from 'web-tree-sitter';
import { binding, handleOf } from './binding.js';
import { speedLayers } from '../util/speedLayers.js';
import { MemoWeakMap } from '../util/memoMap.js';

/** A leaf's children: one frozen empty list for every leaf, not an array each (most nodes are leaves). */
const NO_CHILDREN: SyntaxNode[] = Object.freeze([]) as unknown as SyntaxNode[];

/**
 * A tree-sitter tree copied once into plain JavaScript objects. Every property of a web-tree-sitter
 * node is a call into WebAssembly, and the outline asks for parents, fields and texts many times:
 * copying the tree in one cursor pass makes reducing a file cost less than parsing it.
 */
export class SyntaxNode {
  // Declared, not initialised: the constructor sets every field, and a class field's initialiser
  // runs as a function call per node, which is most of a copied node's cost when no JIT runs.
  /** Set by the copy (syntax.ts only): NO_CHILDREN until a first child is found. */
  declare children: SyntaxNode[];
  declare parent: SyntaxNode | null;
  declare private named: readonly SyntaxNode[] | undefined;
  declare hasError: boolean;
  /** Set by the copy once the node's children are known: a parent spans its first to its last child. */
  declare startIndex: number;
  declare endIndex: number;
  declare private readonly source: SourceLines;
  declare readonly type: string;
  declare readonly isNamed: boolean;
  declare readonly isMissing: boolean;
  /** The field this node fills in its parent (`name`, `body`, ...); null for an anonymous token (toSyntax does not ask). */
  declare readonly field: string | null;

  constructor(source: SourceLines, type: string, isNamed: boolean, isMissing: boolean, field: string | null, parent: SyntaxNode | null) {
    this.children = NO_CHILDREN;
    this.parent = parent;
    this.named = undefined;
    this.hasError = false;
    this.startIndex = 0;
    this.endIndex = 0;
    this.source = source;
    this.type = type;
    this.isNamed = isNamed;
    this.isMissing = isMissing;
    this.field = field;
  }

  get text(): string {
    return this.source.text.slice(this.startIndex, this.endIndex);
  }

  /** 0-based row and column (in UTF-16 units), from the text: asking tree-sitter costs a call per node. */
  get startPosition(): { row: number; column: number } {
    return this.source.position(this.startIndex);
  }

  /** Filtered once and kept: the reducer asks a node for them again and again. */
  get namedChildren(): readonly SyntaxNode[] {
    return (this.named ??= this.children.filter((child) => child.isNamed));
  }

  childForFieldName(field: string): SyntaxNode | null {
    return this.children.find((child) => child.field === field) ?? null;
  }

  childrenForFieldName(field: string): SyntaxNode[] {
    return this.children.filter((child) => child.field === field);
  }

  /** Every node of the file in source order, asked of the file's root; undefined for any other node. */
  inOrder(): readonly SyntaxNode[] | undefined {
    return this.source.root === this ? this.source.nodes : undefined;
  }

  equals(other: SyntaxNode): boolean {
    return this === other;
  }
}

/** A file's text with where its lines start (computed on the first position asked for), and its nodes. */
class SourceLines {
  private starts: number[] | undefined;
  /** The file's nodes as the copy made them: depth first, parents before children. */
  readonly nodes: SyntaxNode[] = [];
  root: SyntaxNode | undefined;

  constructor(readonly text: string) {}

  position(index: number): { row: number; column: number } {
    const starts = (this.starts ??= [0, ...[...this.text.matchAll(/\n/g)].map((match) => match.index + 1)]);
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return { row: low, column: index - starts[low]! };
  }
}

/**
 * The copy of a node the tree-sitter tree holds at `[start, end)` with `type`. Of nested nodes alike
 * in range and type, the outermost. From a file's root, a binary search of its nodes in source
 * order (a parent before its children, so starts never decrease), so finding each of a file's
 * captures costs a few steps; from any other node, down through the child that spans the range.
 */
export function nodeAt(root: SyntaxNode, start: number, end: number, type: string): SyntaxNode | undefined {
  const ordered = root.inOrder();
  if (ordered) {
    let low = 0;
    let high = ordered.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (ordered[middle]!.startIndex < start) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < ordered.length && ordered[index]!.startIndex === start; index++) {
      const node = ordered[index]!;
      if (node.endIndex === end && node.type === type) return node;
    }
    return undefined;
  }
  for (let at: SyntaxNode | undefined = root; at; ) {
    if (at.startIndex === start && at.endIndex === end && at.type === type) return at;
    at = at.children.find((child) => child.startIndex <= start && end <= child.endIndex && (child.startIndex < child.endIndex || start === end));
  }
  return undefined;
}

/**
 * Every named node under `root` (itself included), depth first in source order, with an explicit
 * stack: a deeply nested file cannot overflow the call stack. `skip` prunes a subtree.
 * @yields each node, parents before their children
 */
export function* descendants(root: SyntaxNode, skip?: (node: SyntaxNode) => boolean): Generator<SyntaxNode> {
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== root && skip?.(node)) continue;
    yield node;
    const named = node.namedChildren;
    for (let index = named.length - 1; index >= 0; index--) stack.push(named[index]!);
  }
}

/** Which node types are named, per language, learnt as the copies meet them. */
const namedTypes = new MemoWeakMap<Language, boolean[]>();

/**
 * The whole tree as SyntaxNodes; `source` is the text it was parsed from (indices are UTF-16).
 * Per node the cursor is asked only its type and field (names and namedness from the language's
 * tables) and, for a leaf, its range: the calls into WebAssembly are what a copy costs, so they go
 * straight to the module (binding.ts), the cursor held in its transfer buffer throughout.
 */
export function toSyntax(tree: Tree, source: string): SyntaxNode {
  if (!speedLayers().treeSitterInternals) return toSyntaxPublic(tree, source);
  const { language } = tree;
  const wasm = binding.module;
  const at = handleOf(tree);
  let named = namedTypes.get(language);
  if (!named) namedTypes.set(language, (named = []));
  const lines = new SourceLines(source);
  const rootNode = tree.rootNode;
  // A missing node exists only in a tree with errors: ask for it only then.
  const errors = rootNode.hasError;
  // Asked before the cursor takes the buffer: every property of a web-tree-sitter node goes through it.
  const { startIndex: rootStart, endIndex: rootEnd } = rootNode;
  const { types, fields } = language;
  const { nodes } = lines;
  const make = (parent: SyntaxNode | null): SyntaxNode => {
    const id = wasm._ts_tree_cursor_current_node_type_id_wasm(at);
    const isNamed = (named[id] ??= language.nodeTypeIsNamed(id));
    // An anonymous token's field is not asked: every field the outline reads holds a named node.
    const field = parent && isNamed ? (fields[wasm._ts_tree_cursor_current_field_id_wasm(at)] ?? null) : null;
    const node = new SyntaxNode(lines, types[id] ?? 'ERROR', isNamed, errors && wasm._ts_tree_cursor_current_node_is_missing_wasm(at) === 1, field, parent);
    nodes.push(node);
    return node;
  };
  // The root node into the buffer, then a cursor on it in its place: nothing else may use the buffer until it is deleted.
  wasm._ts_tree_root_node_wasm(at);
  wasm._ts_tree_cursor_new_wasm(at);
  try {
    const root = make(null);
    lines.root = root;
    const stack: SyntaxNode[] = [root];
    // Depth-first with the cursor: down to the first child, across siblings, up when a level ends.
    let current = root;
    for (;;) {
      if (wasm._ts_tree_cursor_goto_first_child_wasm(at) === 1) {
        const child = make(current);
        current.children = [child];
        stack.push(child);
        current = child;
        continue;
      }
      current.startIndex = wasm._ts_tree_cursor_start_index_wasm(at);
      current.endIndex = wasm._ts_tree_cursor_end_index_wasm(at);
      for (;;) {
        const done = stack.pop()!;
        const { children } = done;
        if (children.length > 0) {
          done.startIndex = children[0]!.startIndex;
          done.endIndex = children[children.length - 1]!.endIndex;
        }
        done.hasError = errors && (done.type === 'ERROR' || done.isMissing || children.some((child) => child.hasError));
        if (stack.length === 0) {
          // The module alone spans more than its children: the file's trailing whitespace.
          root.startIndex = rootStart;
          root.endIndex = rootEnd;
          return root;
        }
        const parent = stack[stack.length - 1]!;
        if (wasm._ts_tree_cursor_goto_next_sibling_wasm(at) === 1) {
          const sibling = make(parent);
          parent.children.push(sibling);
          stack.push(sibling);
          current = sibling;
          break;
        }
        wasm._ts_tree_cursor_goto_parent_wasm(at);
      }
    }
  } finally {
    wasm._ts_tree_cursor_delete_wasm(at);
  }
}

/** toSyntax through web-tree-sitter's public TreeCursor. */
function toSyntaxPublic(tree: Tree, source: string): SyntaxNode {
  const { language } = tree;
  let named = namedTypes.get(language);
  if (!named) namedTypes.set(language, (named = []));
  const lines = new SourceLines(source);
  const rootNode = tree.rootNode;
  // A missing node exists only in a tree with errors: ask for it only then.
  const errors = rootNode.hasError;
  // Asked before the cursor takes the buffer: every property of a web-tree-sitter node goes through it.
  const { startIndex: rootStart, endIndex: rootEnd } = rootNode;
  const { types, fields } = language;
  const { nodes } = lines;
  const make = (parent: SyntaxNode | null): SyntaxNode => {
    const id = cursor.nodeTypeId;
    const isNamed = (named[id] ??= language.nodeTypeIsNamed(id));
    // An anonymous token's field is not asked: every field the outline reads holds a named node.
    const field = parent && isNamed ? (fields[cursor.currentFieldId] ?? null) : null;
    const node = new SyntaxNode(lines, types[id] ?? 'ERROR', isNamed, errors && cursor.nodeIsMissing, field, parent);
    nodes.push(node);
    return node;
  };
  const cursor = tree.walk();
  try {
    const root = make(null);
    lines.root = root;
    const stack: SyntaxNode[] = [root];
    // Depth-first with the cursor: down to the first child, across siblings, up when a level ends.
    let current = root;
    for (;;) {
      if (cursor.gotoFirstChild()) {
        const child = make(current);
        current.children = [child];
        stack.push(child);
        current = child;
        continue;
      }
      current.startIndex = cursor.startIndex;
      current.endIndex = cursor.endIndex;
      for (;;) {
        const done = stack.pop()!;
        const { children } = done;
        if (children.length > 0) {
          done.startIndex = children[0]!.startIndex;
          done.endIndex = children[children.length - 1]!.endIndex;
        }
        done.hasError = errors && (done.type === 'ERROR' || done.isMissing || children.some((child) => child.hasError));
        if (stack.length === 0) {
          // The module alone spans more than its children: the file's trailing whitespace.
          root.startIndex = rootStart;
          root.endIndex = rootEnd;
          return root;
        }
        const parent = stack[stack.length - 1]!;
        if (cursor.gotoNextSibling()) {
          const sibling = make(parent);
          parent.children.push(sibling);
          stack.push(sibling);
          current = sibling;
          break;
        }
        cursor.gotoParent();
      }
    }
  } finally {
    cursor.delete();
  }
}
