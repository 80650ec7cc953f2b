/**
 * The style seeds planted into each idiom (test/fixtures/style-idioms), two ways, outlines only (no
 * processes, no renders: every seed is a source facet's):
 * - every seed of the seed suite (test/helpers/idiomSeeds.ts: one per source facet, written in each
 *   idiom's own names and structure) planted into every idiom and judged beside three unseeded copies
 *   of it, whose convention the seed departs from: found at its line (within three), naming the seeded
 *   idiom, and nothing else found (a finding of another facet is a false alarm, unless the same edit
 *   changes that facet by nature: `also`). Where an idiom has no counterpart, EXCLUDED says why.
 * - the seeds written once over what the code does (the constant holding the StorageClass's name, the
 *   function writing desired resources, the readiness loop) planted into each idiom judged beside the
 *   bundled five, whose shared conventions the seed departs from.
 * The unseeded idioms' own findings are test/unit/style-idioms.test.ts's (each expected-style.txt).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compareStyle, type StyleSubject } from '../../src/compare/style.js';
import { parserFor } from '../../src/outline/grammar.js';
import { buildOutline } from '../../src/outline/outline.js';
import { readSources } from '../../src/outline/read.js';
import type { Adapter } from '../../src/config/types.js';
import type { SourceText } from '../../src/outline/types.js';
import type { Finding } from '../../src/compare/findings.js';
import { STYLE_FACETS } from '../../src/facets/styleFacets.js';
import { EXCLUDED, IDIOM_SEEDS, IDIOMS, plantingOf, type Idiom } from '../helpers/idiomSeeds.js';
import { REPO } from '../helpers/project.js';

const BUNDLED = ['aks', 'eks', 'gke', 'nebius', 'vultr'] as const;
const DIR = path.join(REPO, 'test/fixtures/style-idioms');
/** The keys every idiom composes, with the roles their renders give them. */
const IDIOM_KEYS: ReadonlyMap<string, string> = new Map([
  ['network', 'network'],
  ['cluster', 'cluster'],
  ['nodepool-system', 'system-pool'],
  ['nodepool-gpu', 'node-pool'],
  ['provider-config-kubernetes', 'provider-config-kubernetes'],
  ['provider-config-helm', 'provider-config-helm'],
  ['storage-class-rwx', 'cache-storage-class'],
]);

/** A bundled provider's composed keys with their roles, from its goldens (every scenario). */
function goldenKeys(provider: string): Map<string, string> {
  const out = new Map<string, string>();
  const dir = path.join(REPO, 'goldens', provider);
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.yaml') && name !== 'outline.yaml').sort()) {
    const golden = parse(readFileSync(path.join(dir, file), 'utf8')) as { resources?: Record<string, { role?: string }> };
    for (const [key, resource] of Object.entries(golden.resources ?? {})) if (resource.role && !out.has(key)) out.set(key, resource.role);
  }
  return out;
}

/** The seeds written once, over what the code does. */
const SEEDS = IDIOM_SEEDS.filter((seed) => seed.generic !== undefined);

const parser = await parserFor('.py');
async function sourcesOf(root: string): Promise<SourceText[]> {
  return readSources({ name: path.basename(root), file: path.join(root, 'provider.yaml'), source: { root, include: ['**/*.py'] } } as unknown as Adapter);
}
/** An idiom's Python files, by path under its folder. */
const filesOf = async (idiom: Idiom) => new Map((await sourcesOf(path.join(DIR, idiom))).map((source) => [source.path, source.text]));

/** The 1-based line of the seeded place, and whether a finding's place is within three lines of it. */
function seededLine(files: ReadonlyMap<string, string>, at: { file: string; text: string }): number {
  const text = files.get(at.file)!;
  const index = text.indexOf(at.text);
  if (index < 0) throw new Error(`${JSON.stringify(at.text)} not found in ${at.file}`);
  return text.slice(0, index).split('\n').length;
}
const near = (finding: Finding, file: string, line: number) => {
  const match = /^(.*):(\d+)$/.exec(finding.where?.[0] ?? '');
  return match?.[1] === file && Math.abs(Number(match[2]) - line) <= 3;
};

describe('every style seed planted into every idiom, judged beside three unseeded copies of it', async () => {
  const COPIES = ['a', 'b', 'c'];
  const outlined = (provider: string, idiom: Idiom, files: ReadonlyMap<string, string>): StyleSubject => {
    const { outline, places } = buildOutline(provider, [...files].map(([file, body]) => ({ path: file, text: body })), parser);
    return { provider, outline, places, root: `test/fixtures/style-idioms/${idiom}`, keys: IDIOM_KEYS };
  };
  const excluded = (idiom: Idiom, facet: string) => EXCLUDED.find((entry) => entry.idiom === idiom && entry.facet === facet);

  it('has one seed per source facet, each planted into every idiom or excluded with a reason, never both', async () => {
    expect(IDIOM_SEEDS.map((seed) => seed.facet).sort()).toEqual(STYLE_FACETS.map((facet) => facet.id).sort());
    for (const idiom of IDIOMS) {
      const original = await filesOf(idiom);
      for (const seed of IDIOM_SEEDS) {
        const entry = excluded(idiom, seed.facet);
        expect(plantingOf(seed, idiom, original) !== undefined, `${idiom} ${seed.facet}: ${entry ? 'excluded, yet planted' : 'neither planted nor excluded'}`).toBe(entry === undefined);
        if (entry) expect(entry.reason.length, `${idiom} ${seed.facet}`).toBeGreaterThan(20);
      }
    }
    // The few with no counterpart: most seeds plant into every idiom, and no facet misses an idiom's version of its construct.
    expect(EXCLUDED.length).toBeLessThanOrEqual(13);
    expect(EXCLUDED.filter((entry) => entry.kind === 'gap').map((entry) => `${entry.idiom} ${entry.facet}`)).toEqual([]);
  });

  for (const idiom of IDIOMS) {
    const original = await filesOf(idiom);
    const copies = COPIES.map((copy) => outlined(`${idiom}-${copy}`, idiom, original));
    it(`${idiom}: unseeded beside its copies, nothing is found`, () => {
      expect(compareStyle({ subjects: [...copies, outlined(idiom, idiom, original)] }).map((finding) => finding.id)).toEqual([]);
    });
    for (const seed of IDIOM_SEEDS) {
      const planting = excluded(idiom, seed.facet) ? undefined : plantingOf(seed, idiom, original);
      if (!planting) continue;
      it(`${idiom}: ${seed.drift} (${seed.facet}) is found at its line, and nothing else`, () => {
        const line = seededLine(planting.files, planting.at);
        const file = `test/fixtures/style-idioms/${idiom}/${planting.at.file}`;
        const findings = compareStyle({ subjects: [...copies, outlined(idiom, idiom, planting.files)] });
        const own = findings.filter((finding) => finding.type === 'style' && finding.provider === idiom && finding.facet === seed.facet);
        expect(own.find((finding) => near(finding, file, line)), `${file}:${line}: ${own.map((finding) => finding.where?.[0]).join(', ') || 'no such finding'}`).toBeDefined();
        const allowed = new Set([seed.facet, ...(seed.also ?? []), ...(planting.also ?? [])]);
        expect(findings.filter((finding) => finding.provider !== idiom || !allowed.has(finding.facet!)).map((finding) => `${finding.id} ${finding.where?.[0] ?? ''}`)).toEqual([]);
      });
    }
  }
});

describe('the style seeds planted into each idiom, judged beside the bundled five', async () => {
  const bundled: StyleSubject[] = await Promise.all(
    BUNDLED.map(async (name) => {
      const root = path.join(REPO, 'providers', name);
      const { outline, places } = buildOutline(name, await sourcesOf(root), parser);
      return { provider: name, outline, places, root: `providers/${name}`, keys: goldenKeys(name) };
    }),
  );
  const judged = (idiom: string, files: ReadonlyMap<string, string>) => {
    const { outline, places } = buildOutline(idiom, [...files].map(([file, body]) => ({ path: file, text: body })), parser);
    return compareStyle({ subjects: [...bundled, { provider: idiom, outline, places, root: `test/fixtures/style-idioms/${idiom}`, keys: IDIOM_KEYS }] });
  };
  const planted: string[] = [];
  for (const idiom of IDIOMS) {
    const original = await filesOf(idiom);
    // An idiom that already departs from a facet's convention gets no seed of it: a second departure
    // is the same finding, at the first place.
    const before = new Set(judged(idiom, original).filter((finding) => finding.provider === idiom).map((finding) => finding.facet));
    for (const seed of SEEDS) {
      const result = before.has(seed.facet) ? undefined : seed.generic!(original);
      if (!result) continue;
      planted.push(`${idiom} ${seed.facet}`);
      it(`${idiom}: ${seed.drift} (${seed.facet}) is found at its line`, () => {
        const line = seededLine(result.files, result.at);
        const file = `test/fixtures/style-idioms/${idiom}/${result.at.file}`;
        const own = judged(idiom, result.files).filter((finding) => finding.type === 'style' && finding.provider === idiom && finding.facet === seed.facet);
        expect(own.find((finding) => near(finding, file, line)), `${file}:${line}: ${own.map((finding) => finding.where?.[0]).join(', ') || 'no such finding'}`).toBeDefined();
      });
    }
  }
  it('plants every seed into at least two idioms', () => {
    for (const seed of SEEDS) expect(planted.filter((entry) => entry.endsWith(` ${seed.facet}`)).length, seed.facet).toBeGreaterThanOrEqual(2);
  });
});
