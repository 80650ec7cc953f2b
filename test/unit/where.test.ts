/** Findings say where: the code composing the subject, from the outline's places, and one provider that follows. */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import { placeOfSubject, withWhere, type SourcePlaces } from '../../src/compare/where.js';
import type { Outline } from '../../src/outline/types.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { buildReport } from '../../src/report/model.js';
import { renderText } from '../../src/report/text.js';

const source = (root: string, line: number): SourcePlaces => ({
  root,
  outline: { composes: { 'nodepool-{}': 'Composer.compose_node_pools', cluster: 'Composer.compose_cluster' } } as unknown as Outline,
  places: new Map([
    ['compose:nodepool-{}', `function/composer.py:${line}`],
    ['gate:nodepool-{}', `function/composer.py:${line - 3}`],
    ['compose:cluster', 'function/composer.py:20'],
    ['idiom:results:response.normal()', 'function/composer.py:90'],
  ]),
  keys: new Map([
    ['nodepool-gpu', 'node-pool'],
    ['cluster', 'cluster'],
  ]),
});

const divergence = (facet: string, values: Record<string, unknown>, consensus: unknown): Finding => ({
  id: `div:node-pool:${facet}:b`,
  type: 'divergence',
  class: 'behavioral',
  provider: 'b',
  scenarios: ['converge'],
  subject: 'node-pool',
  facet,
  message: 'm',
  values,
  consensus,
  hint: 'h',
});

describe('placeOfSubject', () => {
  it('finds the composer of a role, its gate for gated-on, a composed key of a rule, and where events are emitted', () => {
    const b = source('providers/b', 50);
    expect(placeOfSubject(b, 'node-pool', 'labels')).toBe('providers/b/function/composer.py:50');
    expect(placeOfSubject(b, 'node-pool', 'gated-on')).toBe('providers/b/function/composer.py:47');
    expect(placeOfSubject(b, 'nodepool-gpu', 'nothing-dropped')).toBe('providers/b/function/composer.py:50');
    expect(placeOfSubject(b, 'kubeconfig', 'writer')).toBe('providers/b/function/composer.py:20');
    expect(placeOfSubject(b, 'events', 'events')).toBe('providers/b/function/composer.py:90');
    expect(placeOfSubject(b, 'status', 'fields')).toBeUndefined();
  });

  it('places requirements at the SDK requirement call, the status at its writer, and a fatal result after the normal ones', () => {
    const b = source('providers/b', 50);
    b.places.set('sdk:response.require_resources', 'function/composer.py:12');
    b.places.set('def:Composer.write_status', 'function/composer.py:70');
    b.places.set('def:status', 'tests/builders.py:5');
    b.places.set('idiom:results:response.fatal()', 'function/fn.py:8');
    expect(placeOfSubject(b, 'requirements', 'requires')).toBe('providers/b/function/composer.py:12');
    expect(placeOfSubject(b, 'requirements.gcp-provider-config', 'namespaced-requirement')).toBe('providers/b/function/composer.py:12');
    expect(placeOfSubject(b, 'status', 'fields')).toBe('providers/b/function/composer.py:70');
    expect(placeOfSubject(b, 'events', 'events')).toBe('providers/b/function/composer.py:90');
  });
});

describe('withWhere', () => {
  const sources = new Map([
    ['a', source('providers/a', 30)],
    ['b', source('providers/b', 50)],
  ]);

  it('gives a divergence its own place, then one of a provider holding the convention', () => {
    const [placed] = withWhere([divergence('labels', { a: ['x'], b: [], c: ['x'] }, ['x'])], sources);
    expect(placed!.where).toEqual(['providers/b/function/composer.py:50', 'a: providers/a/function/composer.py:30']);
  });

  it('says nothing where the provider’s source was not read, and names no follower that differs too', () => {
    expect(withWhere([{ ...divergence('labels', { a: ['x'] }, ['x']), provider: 'c' }], sources)[0]!.where).toBeUndefined();
    expect(withWhere([divergence('labels', { a: ['y'], b: [], c: ['x'] }, ['x'])], sources)[0]!.where).toEqual(['providers/b/function/composer.py:50']);
  });

  it("names the provider's def of the function composing the subject in a holder of the convention, where its own code composes none", () => {
    const lacking: SourcePlaces = {
      root: 'providers/c',
      outline: { composes: { cluster: 'Composer.compose_cluster' } } as unknown as Outline,
      places: new Map([
        ['def:Composer.compose_node_pools', 'function/composer.py:77'],
        ['compose:cluster', 'function/composer.py:20'],
      ]),
      keys: new Map([['cluster', 'cluster']]),
    };
    // The holder stands in through its outline golden: no places of its own, but what composes what.
    const holder: SourcePlaces = { ...source('', 0), places: new Map() };
    const absent = { ...divergence('presence', { a: 'composed', c: 'absent' }, 'composed'), provider: 'c', id: 'div:node-pool:presence:c' };
    expect(withWhere([absent], new Map([['a', holder], ['c', lacking]]))[0]!.where).toEqual(['providers/c/function/composer.py:77']);
    // No def of that name: nothing is said rather than a guess.
    lacking.places.delete('def:Composer.compose_node_pools');
    expect(withWhere([absent], new Map([['a', holder], ['c', lacking]]))[0]!.where).toBeUndefined();
  });

  it("places a perturbation's outcome at the gate of the first role one side drops and the other keeps", () => {
    const outcome: Finding = {
      ...divergence('outcome', { a: { dropped: [], unmarked: [] }, b: { dropped: ['node-pool'], unmarked: [] } }, { dropped: [], unmarked: [] }),
      id: 'div:then[0] remove-credentials:outcome:b',
      subject: 'then[0] remove-credentials',
    };
    expect(withWhere([outcome], sources)[0]!.where).toEqual(['providers/b/function/composer.py:47', 'a: providers/a/function/composer.py:27']);
  });

  it('leaves a style finding’s own where as it is', () => {
    const style: Finding = { id: 'style:x:y:b', type: 'style', class: 'stylistic', provider: 'b', subject: 'node-pool', message: 'm', hint: 'h', where: ['providers/b/x.py:1'] };
    expect(withWhere([style], sources)).toEqual([style]);
  });
});

describe('reports', () => {
  it('print where and the scenarios of a cause several show, the scenarios once; the matrix colors each of them', () => {
    const finding: Finding = { ...divergence('labels', { a: ['x'], b: [] }, ['x']), scenarios: ['converge', 'two-pools'], where: ['providers/b/function/composer.py:50', 'a: providers/a/function/composer.py:30'] };
    const report = buildReport(['a', 'b'], ['converge', 'two-pools', 'never-ready'], [finding]);
    expect(report.cells).toEqual({ converge: { a: 'clean', b: 'divergent' }, 'two-pools': { a: 'clean', b: 'divergent' }, 'never-ready': { a: 'clean', b: 'clean' } });
    const text = renderText(report, { color: false });
    expect(text).toContain('  ✗ b (2 scenarios: converge, two-pools)  m  [div:node-pool:labels:b]\n      at providers/b/function/composer.py:50; a: providers/a/function/composer.py:30 → ');
    expect(text.split('two-pools').length - 1).toBe(2); // the matrix row, and the finding's line
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('<summary>b (2 scenarios: converge, two-pools): 1 finding</summary>');
    expect(markdown).toContain(' · at `providers/b/function/composer.py:50`, `a: providers/a/function/composer.py:30` · id `div:node-pool:labels:b`');
    expect(markdown.split('two-pools').length - 1).toBe(2);
  });
});
