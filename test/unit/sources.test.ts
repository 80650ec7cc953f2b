/** Outline goldens, the judgement of the providers' code as a whole, and the report's source row. */
import { OUTLINE_VERSION } from '../../src/outline/types.js';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import { compareOutlineGolden } from '../../src/compare/outline-golden.js';
import { judgeSources, type OutlinedProvider } from '../../src/compare/sourceStyle.js';
import { toCanonicalOutline } from '../../src/outline/canonicalOutline.js';
import type { FormatterReport } from '../../src/outline/formatter.js';
import { buildReport } from '../../src/report/model.js';
import { renderJson } from '../../src/report/json.js';
import { renderText } from '../../src/report/text.js';
import { FIXTURE_KEYS, fixtureOutline, HOUSE } from '../helpers/style.js';

const clean = (provider: string): FormatterReport => ({ provider, unformatted: [], lint: [], ms: 0 });

async function outlined(name: string, golden?: (text: string) => string | undefined): Promise<OutlinedProvider> {
  const result = await fixtureOutline(name);
  const text = toCanonicalOutline(result.outline);
  return { provider: name, root: `style/${name}`, result, formatter: clean(name), golden: golden ? golden(text) : text, keys: FIXTURE_KEYS };
}

describe('outline goldens', () => {
  it('match when unchanged; missing, unreadable and changed ones are golden findings of class stylistic', async () => {
    const { outline } = await fixtureOutline('alpha');
    const text = toCanonicalOutline(outline);
    expect(compareOutlineGolden('alpha', text, outline)).toEqual([]);
    expect(compareOutlineGolden('alpha', undefined, outline)).toEqual([expect.objectContaining({ id: 'golden-missing:alpha/outline', type: 'golden', class: 'stylistic' })]);
    expect(compareOutlineGolden('alpha', text.replace(`outline: ${OUTLINE_VERSION}`, 'outline: 99'), outline)).toEqual([expect.objectContaining({ id: 'golden-unreadable:alpha/outline', message: expect.stringContaining('outline format 99') })]);
    const renamed = toCanonicalOutline((await fixtureOutline('renamed-composer')).outline).replace('provider: renamed-composer', 'provider: alpha');
    const changes = compareOutlineGolden('alpha', renamed, outline);
    expect(changes.map((finding) => finding.id)).toEqual(['golden:alpha/outline:composes', 'golden:alpha/outline:files.function/composer.py']);
    expect(changes[0]!.diff).toContain('_nodegroups');
  });
});

describe('judgeSources', () => {
  it('puts together syntax errors, the formatting rule, outline goldens and style facets, blaming only what it outlined', async () => {
    const providers = await Promise.all([...HOUSE.map((name) => outlined(name)), outlined('camel-constant', () => undefined), outlined('broken-syntax')]);
    providers[0] = { ...providers[0]!, formatter: { ...clean('alpha'), unformatted: [{ file: 'function/composer.py', line: 3, code: 'unformatted', message: 'File would be reformatted' }] } };
    const ids = judgeSources({ outlined: providers, standIns: [] }).map((finding) => finding.id);
    expect(ids).toContain('style:format:ruff-format:alpha');
    expect(ids).toContain('style:function/composer.py:syntax:broken-syntax');
    expect(ids).toContain('golden-missing:camel-constant/outline');
    expect(ids).toContain('style:constants:naming-style:camel-constant');
    // Stand-ins (drift diff -p P) form conventions but are never blamed.
    const [p, ...others] = await Promise.all(['camel-constant', ...HOUSE].map((name) => outlined(name)));
    const standIns = others.map((other) => ({ provider: other.provider, outline: other.result.outline, keys: FIXTURE_KEYS }));
    expect(judgeSources({ outlined: [p!], standIns }).map((finding) => finding.id)).toEqual(['style:constants:naming-style:camel-constant']);
  });
});

describe('the source row', () => {
  const style: Finding = { id: 'style:constants:naming-style:b', type: 'style', class: 'stylistic', provider: 'b', subject: 'constants', facet: 'naming-style', message: 'm', hint: 'h' };
  it('takes findings without a scenario, and only when the run outlined source', () => {
    const report = buildReport(['a', 'b', 'c'], ['converge'], [style], { sources: ['a', 'b'] });
    expect(report.sources).toEqual({ a: 'clean', b: 'divergent' });
    expect(report.cells).toEqual({ converge: { a: 'clean', b: 'clean', c: 'clean' } });
    expect(renderText(report, { color: false })).toMatch(/\nsource +clean +divergent +-\n/);
    expect(JSON.parse(renderJson(report)).sources).toEqual({ a: 'clean', b: 'divergent' });
    expect(buildReport(['a'], ['converge'], []).sources).toBeUndefined();
    const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
    expect(validate(JSON.parse(renderJson(report))), JSON.stringify(validate.errors)).toBe(true);
  });
});
