import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectFacetValues } from '../../src/compare/cross.js';
import { FACETS, facetMeta, isFacet } from '../../src/facets/registry.js';
import { parseGolden } from '../../src/goldens/format.js';
import { facetsMarkdown, facetsText } from '../../src/report/facetsText.js';
import type { Skeleton } from '../../src/skeleton/types.js';
import { REPO } from '../helpers/project.js';

/** The bundled providers' committed skeletons of one scenario. */
function goldens(scenario: string): Skeleton[] {
  const dir = path.join(REPO, 'goldens');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const file = path.join(dir, entry.name, `${scenario}.yaml`);
      const golden = parseGolden(readFileSync(file, 'utf8'), file);
      if (!golden.ok) throw new Error(`${file}: ${golden.problem}`);
      return golden.skeleton;
    });
}

describe('the facet registry', () => {
  it('has one entry per id, each with every field of its meta filled in', () => {
    expect(new Set(FACETS.map((facet) => facet.id)).size).toBe(FACETS.length);
    for (const facet of FACETS) {
      for (const field of ['description', 'compares', 'example', 'fix', 'extractor'] as const) expect(facet[field].trim(), `${facet.id}.${field}`).not.toBe('');
    }
  });

  it('names for every facet the module that extracts it', () => {
    // The facet's id is written where its value is made: its family's module, beside its meta.
    for (const facet of FACETS) {
      expect(facet.extractor, facet.id).toMatch(/^src\/facets\/(rendered|source)\/\w+\.ts$/);
      const code = readFileSync(path.join(REPO, facet.extractor), 'utf8');
      expect(code, `${facet.id} in ${facet.extractor}`).toContain(`facet: '${facet.id}'`);
      expect(code, `${facet.id}'s meta in ${facet.extractor}`).toContain(`id: '${facet.id}'`);
    }
  });

  it('holds every facet the cross-provider comparison extracts from the bundled goldens', () => {
    const scenarios = readdirSync(path.join(REPO, 'scenarios')).map((file) => file.replace(/\.yaml$/, ''));
    const seen = new Set<string>();
    for (const scenario of scenarios) {
      for (const facet of collectFacetValues({ scenario, skeletons: goldens(scenario), pools: ['gpu', 'cpu'], ablated: true })) {
        expect(isFacet(facet.facet), `${facet.facet} (${scenario})`).toBe(true);
        seen.add(facet.facet);
      }
    }
    // Every rendered facet is exercised by the bundled scenarios; a registered one that nothing extracts is stale.
    const rendered = FACETS.filter((facet) => facet.source === 'skeleton').map((facet) => facet.id);
    expect(rendered.filter((id) => !seen.has(id))).toEqual([]);
  });

  it('prints every facet through drift facets', () => {
    const text = facetsText(FACETS);
    for (const facet of FACETS) expect(text).toContain(`${facet.id} (${facet.class}, ${facet.source}, per ${facet.scope})`);
  });

  it('is what docs/facets.md says (regenerate it with npm run docs)', () => {
    expect(readFileSync(path.join(REPO, 'docs/facets.md'), 'utf8')).toBe(facetsMarkdown(FACETS));
  });

  it('refuses an id that is not registered', () => {
    expect(() => facetMeta('no-such-facet')).toThrow(/not in the registry/);
  });
});
