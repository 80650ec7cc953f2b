/**
 * Style facets across providers on the style fixtures: three providers in one idiom (alpha, beta,
 * gamma, on three made-up clouds) and one seeded drift each, in a provider of its own.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import { syntaxFindings } from '../../src/compare/formatting.js';
import { compareStyle } from '../../src/compare/style.js';
import { parserFor } from '../../src/outline/grammar.js';
import { buildOutline } from '../../src/outline/outline.js';
import { readSources } from '../../src/outline/read.js';
import { FIXTURE_KEYS, fixtureAdapter, fixtureOutline, fixtureSubjects, foreignNames, HOUSE, pythonNames, pythonTexts, STYLE } from '../helpers/style.js';

const judged = async (drift: string, established?: string[]): Promise<Finding[]> =>
  compareStyle({ subjects: await fixtureSubjects([...HOUSE, drift]), ...(established ? { established: new Set(established) } : {}) });

const brief = (findings: Finding[]) => findings.map((finding) => ({ id: finding.id, type: finding.type, class: finding.class, provider: finding.provider }));

describe('compareStyle: one idiom', () => {
  it('finds nothing among providers that share an idiom, though their code differs', async () => {
    expect(compareStyle({ subjects: await fixtureSubjects(HOUSE) })).toEqual([]);
  });
});

describe('compareStyle: seeded drifts, each named on its provider with the file:line to change', () => {
  const cases: Array<{ drift: string; ids: string[]; place: RegExp; convention: string }> = [
    { drift: 'renamed-composer', ids: ['style:node-pool:composer:renamed-composer', 'style:system-pool:composer:renamed-composer'], place: /renamed-composer\/function\/composer\.py:42\b/, convention: 'compose_node_pools' },
    { drift: 'camel-constant', ids: ['style:constants:naming-style:camel-constant'], place: /camel-constant\/function\/composer\.py:11 \(systemPool\)/, convention: 'UPPER_SNAKE' },
    { drift: 'dict-write', ids: ['style:resource-write:idiom:dict-write'], place: /dict-write\/function\/composer\.py:76\b/, convention: 'resource.update(desired.resources[])' },
    { drift: 'moved-helper', ids: ['style:_cloud:module:moved-helper', 'style:package:layout:moved-helper'], place: /moved-helper\/function\/bodies\.py:\d+/, convention: 'function/composer.py' },
    { drift: 'builder', ids: ['style:tests:layout:builder'], place: /builder\/tests\/builder\.py:1\b/, convention: 'tests/builders.py' },
    // Its own results helper shares the job of the others' _desire (returns None, writes the response) but is
    // another helper: paired helper by helper, _desire still matches and the extra one is named, alone.
    { drift: 'own-results', ids: ['style:_event:helper-presence:own-results', 'style:results:idiom:own-results'], place: /own-results\/function\/composer\.py:71\b/, convention: 'response.<severity>()' },
  ];
  for (const { drift, ids, place, convention } of cases) {
    it(`${drift}: a stylistic finding on ${drift} only`, async () => {
      const findings = await judged(drift);
      expect(findings.map((finding) => finding.id).sort()).toEqual(ids);
      for (const finding of findings) {
        expect(finding).toMatchObject({ type: 'style', class: 'stylistic', provider: drift });
        expect(finding.scenario).toBeUndefined();
      }
      const first = findings.find((finding) => finding.id === ids[ids.length - 1])!;
      // The message names the convention's value; the hint only where the provider has the names it uses.
      expect(first.message).toContain(convention);
      if (drift === 'renamed-composer') expect(first.hint).toMatch(/^the convention \(3 of 4\) is as alpha writes it \(test\/fixtures\/style\/alpha\/function\/composer\.py:\d+\): change /);
      else expect(first.hint).toContain(convention);
      expect(first.hint).toMatch(place);
      // where: the differing place first, then a provider that follows the convention.
      expect(first.hint).toContain(`change ${first.where?.[0]}`);
      expect(first.where?.[1]).toMatch(/^(alpha|beta|gamma): test\/fixtures\/style\/(alpha|beta|gamma)\/\S+:\d+$/);
    });
  }

  it('no hint names a Python name the judged provider does not have, on any seeded fixture', async () => {
    const problems: string[] = [];
    for (const { drift } of cases) {
      const texts = new Map([...HOUSE, drift].map((name) => [name, pythonTexts(path.join(STYLE, name))]));
      const names = pythonNames([...texts.values()].flat());
      for (const finding of await judged(drift)) problems.push(...foreignNames(finding.hint, names, texts.get(finding.provider!)!).map((name) => `${finding.id}: ${name}`));
    }
    expect(problems).toEqual([]);
  });

    it('judges P against the others as established providers (drift diff -p P)', async () => {
    expect(brief(await judged('renamed-composer', [...HOUSE]))).toEqual(brief(await judged('renamed-composer')));
    // An established provider is never blamed: the drift in an established provider is not P's.
    const findings = compareStyle({ subjects: await fixtureSubjects(['alpha', 'beta', 'camel-constant', 'gamma']), established: new Set(['alpha', 'beta', 'camel-constant']) });
    expect(findings.filter((finding) => finding.provider === 'gamma')).toEqual([]);
  });

  it('blames nobody where there is no convention: one split for the facet', async () => {
    const findings = compareStyle({ subjects: await fixtureSubjects(['alpha', 'renamed-composer']) });
    expect(brief(findings)).toEqual([
      { id: 'style:node-pool:composer', type: 'split', class: 'stylistic', provider: undefined },
      { id: 'style:system-pool:composer', type: 'split', class: 'stylistic', provider: undefined },
    ]);
    expect(findings[0]!.message).toContain('_nodegroups (renamed-composer)');
  });

  it('is deterministic: the same findings whatever order the providers come in', async () => {
    const subjects = await fixtureSubjects([...HOUSE, 'moved-helper', 'builder']);
    expect(compareStyle({ subjects: [...subjects].reverse() })).toEqual(compareStyle({ subjects }));
  });
});

describe('compareStyle: constants matched by value and by where the value goes', () => {
  /** alpha's code as a fourth provider, its composer edited. */
  const delta = async (edit: (text: string) => string) => {
    const sources = (await readSources(fixtureAdapter('alpha'))).map((source) => (source.path === 'function/composer.py' ? { ...source, text: edit(source.text) } : { ...source }));
    const { outline, places } = buildOutline('delta', sources, await parserFor('.py'));
    return { provider: 'delta', outline, places, root: 'delta', keys: FIXTURE_KEYS };
  };
  const constantNames = async (edit: (text: string) => string) =>
    compareStyle({ subjects: [...(await fixtureSubjects(HOUSE)), await delta(edit)] }).filter((finding) => finding.facet === 'constant-name');

  it('names an outlier that holds the value for the same use under another name', async () => {
    const findings = await constantNames((text) => text.replaceAll('KUBERNETES', 'ACME_KUBERNETES'));
    expect(findings.map((finding) => finding.id)).toEqual(['style:kubernetes.m.crossplane.io/v1alpha1:constant-name:delta']);
    expect(findings[0]!.where?.[0]).toMatch(/^delta\/function\/composer\.py:\d+$/);
  });

  it('leaves alone a constant that holds the same value by chance, for another use', async () => {
    const edit = (text: string) => text.replaceAll('KUBERNETES', 'ACME_KUBERNETES').replace('{"apiVersion": ACME_KUBERNETES,', '{"origin": ACME_KUBERNETES, "apiVersion": "v1",');
    expect(edit('x = {"apiVersion": ACME_KUBERNETES, "kind": 1}')).not.toBe('x = {"apiVersion": ACME_KUBERNETES, "kind": 1}');
    expect(await constantNames(edit)).toEqual([]);
  });
});

describe('syntax errors', () => {
  it('become one finding with file:line, not a crash', async () => {
    const result = await fixtureOutline('broken-syntax');
    expect(syntaxFindings('broken-syntax', result, 'test/fixtures/style/broken-syntax')).toEqual([
      expect.objectContaining({
        id: 'style:function/composer.py:syntax:broken-syntax',
        type: 'error',
        provider: 'broken-syntax',
        message: expect.stringMatching(/^test\/fixtures\/style\/broken-syntax\/function\/composer\.py:38:\d+: the source does not parse$/),
      }),
    ]);
  });
});
