/**
 * `drift diff -p P` judges P against the others' committed goldens, but a style finding's example in
 * another provider names where that code is on disk today, as a full run does: the file:line of the
 * def, read from the stand-in's source (sourcesRun.ts `standInPlaces`), while the verdict stays the
 * goldens'. With the verdict cache on, a line moved in a stand-in's source moves the example (the
 * stand-ins' outline keys are in the verdict's key, diffVerdict.ts). A stand-in whose source cannot be
 * outlined is shown by name, as before, and the run goes on. `drift expect -p` shows what diff -p does.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flattened } from '../helpers/consequences.js';
import { runDrift } from '../helpers/drift.js';
import { copyProject, mutate, replaceExactly, tempDir, type ProjectCopy } from '../helpers/project.js';
import type { Report } from '../../src/report/model.js';

const SLOW = 300_000;
const ID = 'style:node-pool:composer:gke';
const DEF = 'def compose_node_pools(';

interface Finding {
  id: string;
  where?: string[];
  hint: string;
}

/** The finding's example in the provider that follows the convention: `aks: providers/aks/function/composer.py:175`. */
function example(stdout: string): { provider: string; file: string; line: number; text: string } {
  const findings = (flattened(JSON.parse(stdout) as Report) as unknown as { findings: Finding[] }).findings;
  const finding = findings.find((found) => found.id === ID);
  if (!finding) throw new Error(`no finding ${ID} among ${findings.map((found) => found.id).join(', ')}`);
  const shown = (finding.where ?? []).map((place) => /^(\w+): (providers\/\1\/\S+\.py):(\d+)$/.exec(place)).find(Boolean);
  if (!shown) throw new Error(`${ID} names no example file:line: ${JSON.stringify(finding.where)}`);
  return { provider: shown[1]!, file: shown[2]!, line: Number(shown[3]), text: `${shown[1]}: ${shown[2]}:${shown[3]}` };
}

/** The 1-based line of `file` (relative to the copy) that holds `text`, the only one. */
function lineOf(dir: string, file: string, text: string): number {
  const lines = readFileSync(path.join(dir, file), 'utf8').split('\n');
  const found = lines.flatMap((line, index) => (line.includes(text) ? [index + 1] : []));
  expect(found, `${file} holds ${text} once`).toHaveLength(1);
  return found[0]!;
}

describe('-p: a stand-in’s example names its file:line from its source', () => {
  let copy: ProjectCopy;
  const cache = tempDir('drift-stand-in-cache-');
  const verdicts = path.join(cache.dir, 'verdicts');
  const kept = () => readdirSync(verdicts).filter((name) => name.startsWith('diff-')).length;
  const run = (args: string[], dir: string) => runDrift([...args, '-f', 'json'], dir, { DRIFT_CACHE_DIR: cache.dir });
  beforeAll(() => {
    copy = copyProject({ prefix: 'drift-stand-in-places-' });
    mutate(copy.dir, 'gke', 'function/composer.py', (text) => replaceExactly(replaceExactly(text, 'def compose_node_pools(self)', 'def _nodepools(self)'), 'self.compose_node_pools()', 'self._nodepools()'));
  });
  afterAll(() => {
    copy.remove();
    cache.remove();
  });

  it('names the def’s line as a full run does, and moves with it under the verdict cache', async () => {
    const full = await run(['diff'], copy.dir);
    expect(full.exitCode, full.stderr).toBe(1);
    const inFull = example(full.stdout);
    expect(inFull.provider).not.toBe('gke');
    expect(inFull.line).toBe(lineOf(copy.dir, inFull.file, DEF));

    // Cached cells and outlines: the -p run keeps its verdict, the next reads it back.
    const alone = await run(['diff', '-p', 'gke'], copy.dir);
    expect(alone.exitCode, alone.stderr).toBe(1);
    expect(example(alone.stdout).text).toBe(inFull.text);
    const again = await run(['diff', '-p', 'gke'], copy.dir);
    expect(again.stdout).toBe(alone.stdout);
    const before = kept();
    expect(before).toBeGreaterThan(0);
    // drift expect -p holds the same finding's place on its not-met line.
    const expected = await run(['expect', '-p', 'gke', '--unmet'], copy.dir);
    const line = (JSON.parse(expected.stdout) as { requirements: Array<{ id: string; where?: string[] }> }).requirements.find((requirement) => requirement.id === ID);
    expect(line?.where).toContain(inFull.text);

    // Three comment lines above the def in the stand-in: its goldens are unchanged, its place is not.
    mutate(copy.dir, inFull.provider, inFull.file.split('/').slice(2).join('/'), (text) => replaceExactly(text, `    ${DEF}`, `    # one\n    # two\n    # three\n    ${DEF}`));
    const moved = example((await run(['diff', '-p', 'gke'], copy.dir)).stdout);
    expect(moved.file).toBe(inFull.file);
    expect(moved.line).toBe(inFull.line + 3);
    expect(moved.line).toBe(lineOf(copy.dir, moved.file, DEF));
    // Judged anew (the stand-in's outline key is in the verdict's key), and kept under the new key.
    expect(kept()).toBe(before + 1);
  }, SLOW);

  it('shows a stand-in whose source cannot be outlined by its name alone, and still judges', async () => {
    const broken = copyProject({ prefix: 'drift-stand-in-unreadable-' });
    try {
      mutate(broken.dir, 'gke', 'function/composer.py', (text) => replaceExactly(replaceExactly(text, 'def compose_node_pools(self)', 'def _nodepools(self)'), 'self.compose_node_pools()', 'self._nodepools()'));
      const { provider } = example((await run(['diff', '-p', 'gke'], broken.dir)).stdout);
      // A file nested past drift's depth limit: that provider's source cannot be outlined (a full run stops on it).
      writeFileSync(path.join(broken.dir, 'providers', provider, 'function', 'deep.py'), `X = ${'('.repeat(600)}1${')'.repeat(600)}\n`);
      const unread = await run(['diff', '-p', 'gke'], broken.dir);
      expect(unread.exitCode, unread.stderr).toBe(1);
      const findings = (flattened(JSON.parse(unread.stdout) as Report) as unknown as { findings: Finding[] }).findings;
      expect(findings.find((found) => found.id === ID)?.where).toContain(`${provider}: ${provider}/`);
    } finally {
      broken.remove();
    }
  }, SLOW);
});
