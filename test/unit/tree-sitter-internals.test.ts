/**
 * The outline's calls into web-tree-sitter's internal exports (outline/binding.ts) must read what
 * its public API reads: every bundled provider's Python file copied (syntax.ts), matched against
 * drift's queries (matches.ts) and checked for depth (bounds.ts) both ways, the speed layer on and
 * off (util/speedLayers.ts), with the same result. The internal calls stay for what they save
 * (docs/performance.md); this is what lets them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tooDeep } from '../../src/outline/bounds.js';
import { parserFor } from '../../src/outline/grammar.js';
import { toSyntax, type SyntaxNode } from '../../src/outline/syntax.js';
import { setSpeedLayers } from '../../src/util/speedLayers.js';
import { REPO } from '../helpers/project.js';

/** Every .py file under providers/ (no __pycache__), by path relative to the repository. */
function pythonFiles(): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '__pycache__' || entry.name === '.venv') continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.py')) found.push([path.relative(REPO, file), readFileSync(file, 'utf8')]);
    }
  };
  walk(path.join(REPO, 'providers'));
  return found.sort(([a], [b]) => (a < b ? -1 : 1));
}

/** A copied tree as plain data: every field the outline reads, children in order. */
function shape(node: SyntaxNode): unknown {
  return [node.type, node.field, node.isNamed, node.isMissing, node.hasError, node.startIndex, node.endIndex, node.children.map(shape)];
}

/** What each way reads from one text: its copy, its query facts, its depth check. */
async function readBothWays(text: string): Promise<{ internal: unknown; public: unknown }> {
  const parse = await parserFor('.py');
  const read = (internals: boolean) => {
    setSpeedLayers({ treeSitterInternals: internals });
    const { tree, facts } = parse(text);
    try {
      return { syntax: shape(toSyntax(tree, text)), facts: facts(), deep: tooDeep(tree) };
    } finally {
      tree.delete();
      setSpeedLayers({});
    }
  };
  return { internal: read(true), public: read(false) };
}

describe("the outline's internal calls into web-tree-sitter", () => {
  afterEach(() => setSpeedLayers({}));

  it('copy, match and depth-check every bundled Python file as the public API does', async () => {
    const files = pythonFiles();
    expect(files.length).toBeGreaterThan(20);
    let facts = 0;
    for (const [file, text] of files) {
      const { internal, public: publicApi } = await readBothWays(text);
      expect(internal, file).toEqual(publicApi);
      facts += (internal as { facts: unknown[] }).facts.length;
    }
    expect(facts).toBeGreaterThan(100);
  });

  it('agree on a file with syntax errors and missing nodes, non-ASCII text, and one nested past the depth limit', async () => {
    for (const text of ['def f(:\n  return [1, 2\nclass C(\n', 'naïve = "ünïcode ✓ 𝄞"\ndef g():\n    return naïve\n', `x = ${'('.repeat(600)}1${')'.repeat(600)}\n`]) {
      const { internal, public: publicApi } = await readBothWays(text);
      expect(internal).toEqual(publicApi);
    }
    const deep = await readBothWays(`x = ${'['.repeat(600)}${']'.repeat(600)}\n`);
    expect((deep.internal as { deep: unknown }).deep).toBeDefined();
  });
});
