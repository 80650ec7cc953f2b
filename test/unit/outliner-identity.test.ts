/** The outline cache's key part for drift's own parser (sourceCache.ts): the parser's real versions and every query's text. */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { outlinerIdentity } from '../../src/outline/grammar.js';
import { REPO } from '../helpers/project.js';

const version = (name: string) => (JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe("the outliner's identity", () => {
  it('names the installed versions of web-tree-sitter and the Python grammar, never `unknown`', () => {
    const identity = outlinerIdentity('.py');
    expect(identity).toContain(`web-tree-sitter ${version('web-tree-sitter')}`);
    expect(identity).toContain(version('tree-sitter-python'));
    expect(identity).not.toMatch(/unknown/);
  });

  it("holds the text of every outline query, so an edited query is a new key", () => {
    const identity = outlinerIdentity('.py');
    const dir = path.join(REPO, 'queries/python');
    const queries = readdirSync(dir).filter((file) => file.endsWith('.scm'));
    expect(queries.length).toBeGreaterThan(3);
    for (const file of queries) expect(identity).toContain(readFileSync(path.join(dir, file), 'utf8'));
  });
});
