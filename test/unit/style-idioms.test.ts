/**
 * The style facets on six providers written in genuinely different idioms
 * (test/fixtures/style-idioms): each gets exactly the findings written down in its folder, and each
 * pair differs on at least three facets.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareStyle, type StyleSubject } from '../../src/compare/style.js';
import { outlineAdapter } from '../../src/outline/read.js';
import { fixtureAdapter, foreignNames, pythonNames, pythonTexts } from '../helpers/style.js';
import { REPO } from '../helpers/project.js';

const IDIOMS = ['classy', 'hybrid', 'modular', 'reqparam', 'selfreq', 'stateful'] as const;
/** The keys every idiom composes, with the roles their renders give them (test/cli/style-idioms-render.test.ts). */
const KEYS: ReadonlyMap<string, string> = new Map([
  ['network', 'network'],
  ['cluster', 'cluster'],
  ['nodepool-system', 'system-pool'],
  ['nodepool-gpu', 'node-pool'],
  ['provider-config-kubernetes', 'provider-config-kubernetes'],
  ['provider-config-helm', 'provider-config-helm'],
  ['storage-class-rwx', 'cache-storage-class'],
]);
const PAIRS = IDIOMS.flatMap((a, index) => IDIOMS.slice(index + 1).map((b) => [a, b] as const));
const DIR = path.join(REPO, 'test/fixtures/style-idioms');
const written = (file: string) =>
  readFileSync(path.join(DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'));

async function subjects(): Promise<StyleSubject[]> {
  return Promise.all(
    IDIOMS.map(async (name) => {
      const adapter = { ...fixtureAdapter(name), source: { root: path.join(DIR, name), include: ['**/*.py'] } };
      const { outline, places } = (await outlineAdapter(adapter))!;
      return { provider: name, outline, places, root: `test/fixtures/style-idioms/${name}`, keys: KEYS };
    }),
  );
}

describe('six idioms', () => {
  it('each gets the style findings written in its folder, and the splits written beside them', async () => {
    const findings = compareStyle({ subjects: await subjects() });
    for (const name of IDIOMS) expect(findings.filter((finding) => finding.provider === name).map((finding) => finding.id).sort(), name).toEqual(written(`${name}/expected-style.txt`).sort());
    expect(findings.filter((finding) => finding.provider === undefined).map((finding) => finding.id).sort()).toEqual(written('expected-splits.txt').sort());
    for (const finding of findings.filter((f) => f.provider !== undefined)) expect(finding.where?.[0]).toMatch(new RegExp(`^test/fixtures/style-idioms/${finding.provider}/function/composer\\.py:\\d+$`));
  });

  it('no hint names a Python name the judged idiom does not have', async () => {
    const texts = new Map<string, string[]>(IDIOMS.map((name) => [name, pythonTexts(path.join(DIR, name))]));
    const names = pythonNames([...texts.values()].flat());
    const findings = compareStyle({ subjects: await subjects() }).filter((finding) => finding.provider !== undefined);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.flatMap((finding) => foreignNames(finding.hint, names, texts.get(finding.provider!)!).map((name) => `${finding.id}: ${name}`))).toEqual([]);
  });

  it('differ pairwise on at least three facets', async () => {
    const findings = compareStyle({ subjects: await subjects() });
    for (const [a, b] of PAIRS) {
      const facets = new Set(findings.filter((finding) => finding.values && JSON.stringify(finding.values[a]) !== JSON.stringify(finding.values[b])).map((finding) => `${finding.subject}:${finding.facet}`));
      expect(facets.size, `${a} vs ${b}: ${[...facets].join(', ')}`).toBeGreaterThanOrEqual(3);
    }
  });
});
