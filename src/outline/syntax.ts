import type { Tree } from 'web-tree-sitter';

/**
 * A tree-sitter tree copied once into plain JavaScript objects. Every property of a web-tree-sitter
 * node is a call into WebAssembly, and the outline asks for parents, fields and texts many times:
 * copying the tree in one cursor pass makes reducing a file cost less than parsing it.
 */
export class SyntaxNode {
  readonly children: SyntaxNode[] = [];
  parent: SyntaxNode | null = null;
  hasError = false;

  constructor(
    private readonly source: string,
    readonly type: string,
    readonly isNamed: boolean,
    readonly isMissing: boolean,
    /** The field this node fills in its parent (`name`, `body`, ...). */
    readonly field: string | null,
    readonly startPosition: { row: number; column: number },
    readonly startIndex: number,
    readonly endIndex: number,
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): SyntaxNode[] {
    return this.children.filter((child) => child.isNamed);
  }

  childForFieldName(field: string): SyntaxNode | null {
    return this.children.find((child) => child.field === field) ?? null;
  }

  childrenForFieldName(field: string): SyntaxNode[] {
    return this.children.filter((child) => child.field === field);
  }

  equals(other: SyntaxNode): boolean {
    return this === other;
  }
}

/**
 * The copy of a node the tree-sitter tree holds at `[start, end)` with `type`: down from the root
 * through the child that spans the range, so finding a query's capture costs its depth, not a map of
 * every node. Of nested nodes alike in range and type, the outermost.
 */
export function nodeAt(root: SyntaxNode, start: number, end: number, type: string): SyntaxNode | undefined {
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

/**
 * The whole tree as SyntaxNodes; `source` is the text it was parsed from (indices are UTF-16).
 */
export function toSyntax(tree: Tree, source: string): SyntaxNode {
  const cursor = tree.walk();
  const make = (parent: SyntaxNode | null): SyntaxNode => {
    const node = new SyntaxNode(source, cursor.nodeType, cursor.nodeIsNamed, cursor.nodeIsMissing, parent ? cursor.currentFieldName : null, cursor.startPosition, cursor.startIndex, cursor.endIndex);
    node.parent = parent;
    return node;
  };
  const root = make(null);
  const stack: SyntaxNode[] = [root];
  // Depth-first with the cursor: down to the first child, across siblings, up when a level ends.
  let current = root;
  for (;;) {
    if (cursor.gotoFirstChild()) {
      const child = make(current);
      current.children.push(child);
      stack.push(child);
      current = child;
      continue;
    }
    for (;;) {
      const done = stack.pop()!;
      done.hasError = done.type === 'ERROR' || done.isMissing || done.children.some((child) => child.hasError);
      if (stack.length === 0) {
        cursor.delete();
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
}
