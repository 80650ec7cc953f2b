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
  it('places a kept region at the literal or the module constant that holds it, the first in the source', () => {
    const b = source('providers/b', 50);
    b.places.set('literal:us-central1-a', 'function/composer.py:140');
    b.places.set('literal:us-central1-a@"zone":', 'function/composer.py:140');
    // A value that merely contains the region's characters is not the region.
    b.places.set('literal:us-central12', 'function/composer.py:30');
    expect(placeOfSubject(b, 'subnet', 'region-from-intent', { own: 'us-central1' })).toBe('providers/b/function/composer.py:140');
    b.outline.files = { 'function/composer.py': { constants: { REGION: { style: 'UPPER_SNAKE', value: 'us-central1' } } } } as unknown as Outline['files'];
    b.places.set('const:function/composer.py:REGION', 'function/composer.py:15');
    expect(placeOfSubject(b, 'subnet', 'region-from-intent', { own: 'us-central1' })).toBe('providers/b/function/composer.py:15');
  });

  it('places an invalid spec answered without a Fatal result at the fatal call, else the servicer\'s handler, else the servicer', () => {
    const b = source('providers/b', 50);
    b.places.set('def:FunctionRunner.RunFunction', 'function/fn.py:14');
    expect(placeOfSubject(b, 'fatal', 'invalid-spec-fatal')).toBe('providers/b/function/fn.py:14');
    b.places.set('handler:Composer.compose_identity:80', 'function/composer.py:80');
    b.places.set('handler:FunctionRunner.RunFunction:21', 'function/fn.py:21');
    expect(placeOfSubject(b, 'fatal', 'invalid-spec-fatal')).toBe('providers/b/function/fn.py:21');
    b.places.set('result:fatal:22:{}', 'function/fn.py:22');
    expect(placeOfSubject(b, 'fatal', 'invalid-spec-fatal')).toBe('providers/b/function/fn.py:22');
  });

  it('finds the composer of a role, its gate for gated-on, a composed key of a rule, and where events are emitted', () => {
    const b = source('providers/b', 50);
    expect(placeOfSubject(b, 'node-pool', 'labels')).toBe('providers/b/function/composer.py:50');
    expect(placeOfSubject(b, 'node-pool', 'gated-on')).toBe('providers/b/function/composer.py:47');
    // A key dropped is dropped where its gate stops composing it.
    expect(placeOfSubject(b, 'nodepool-gpu', 'nothing-dropped')).toBe('providers/b/function/composer.py:47');
    expect(placeOfSubject(b, 'nodepool-gpu', 'in-cluster-no-delete')).toBe('providers/b/function/composer.py:50');
    expect(placeOfSubject(b, 'kubeconfig', 'writer')).toBe('providers/b/function/composer.py:20');
    expect(placeOfSubject(b, 'events', 'events')).toBe('providers/b/function/composer.py:90');
    expect(placeOfSubject(b, 'status', 'fields')).toBeUndefined();
  });

  it('places requirements at the SDK requirement call, the status at its writer, and a fatal result after the normal ones', () => {
    const b = source('providers/b', 50);
    b.places.set('sdk:response.require_resources', 'function/composer.py:12');
    // The status writer is the def that hands the desired composite to a write, whatever its name.
    b.places.set('def:Composer.write_status', 'function/composer.py:99');
    b.places.set('status-write:Composer.publish', 'function/composer.py:70');
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

  it('names, where its own code composes none, the def that composes what the holder composes beside the subject, whatever its name', () => {
    // c composes the kubernetes ProviderConfig in a def named unlike the holder's (singular), and no helm one.
    const lacking: SourcePlaces = {
      root: 'providers/c',
      outline: { composes: { 'provider-config-kubernetes': 'Composer.compose_provider_config' } } as unknown as Outline,
      places: new Map([
        ['def:Composer.compose_provider_configs', 'function/composer.py:5'],
        ['def:Composer.compose_provider_config', 'function/composer.py:77'],
        ['compose:provider-config-kubernetes', 'function/composer.py:80'],
      ]),
      keys: new Map([['provider-config-kubernetes', 'provider-config-kubernetes']]),
    };
    // The holder stands in through its outline golden: no places of its own, but what composes what.
    const holder: SourcePlaces = {
      root: '',
      outline: { composes: { 'provider-config-helm': 'Composer.compose_provider_configs', 'provider-config-kubernetes': 'Composer.compose_provider_configs' } } as unknown as Outline,
      places: new Map(),
      keys: new Map([
        ['provider-config-helm', 'provider-config-helm'],
        ['provider-config-kubernetes', 'provider-config-kubernetes'],
      ]),
    };
    const absent: Finding = { ...divergence('presence', { a: 'composed', c: 'absent' }, 'composed'), provider: 'c', subject: 'provider-config-helm', id: 'div:provider-config-helm:presence:c' };
    expect(withWhere([absent], new Map([['a', holder], ['c', lacking]]))[0]!.where).toEqual(['providers/c/function/composer.py:77']);
    // Nothing composed beside it, and no def that runs composers: nothing is said rather than a guess by name.
    lacking.outline.composes = {};
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

describe('placeOfSubject: the line that decides', () => {
  const placed = (): SourcePlaces => ({
    root: 'providers/d',
    outline: {
      composes: { 'nodepool-{}': 'Composer.compose_node_pools', 'provider-config-kubernetes': 'Composer.compose_provider_configs' },
      idioms: { readinessBy: ['READY_WHEN_COMPOSED', '_observed_ready'] },
      files: { 'function/composer.py': { kind: 'module', constants: { POOL_LABEL: { style: 'UPPER_SNAKE', value: 'modelplane.ai/pool' } }, functions: {}, classes: { Composer: { methods: { compose: { calls: ['compose_node_pools', 'compose_provider_configs'] } } } } } },
    } as unknown as Outline,
    places: new Map([
      ['compose:nodepool-{}', 'function/composer.py:50'],
      ['gate:nodepool-{}', 'function/composer.py:48'],
      ['gates:nodepool-{}#0:', 'function/composer.py:40'],
      ['gates:nodepool-{}#1:cluster', 'function/composer.py:48'],
      ['body:nodepool-{}', 'function/composer.py:60'],
      ['envelope:nodepool-{}', 'function/composer.py:90'],
      ['compose:provider-config-kubernetes', 'function/composer.py:70'],
      ['result:normal:30:Waiting for GCP {} {}', 'function/composer.py:30'],
      ['result:normal:35:Cluster {} is not ready', 'function/composer.py:35'],
      ['result:fatal:8:{}', 'function/fn.py:8'],
      ['const:function/composer.py:READY_WHEN_COMPOSED', 'function/composer.py:3'],
      ['const:function/composer.py:POOL_LABEL', 'function/composer.py:4'],
      ['idiom:readinessMark:x.ready = READY_TRUE', 'function/composer.py:80'],
      ['def:Composer.compose', 'function/composer.py:20'],
      ['def:Composer.compose_provider_configs', 'function/composer.py:66'],
    ]),
    keys: new Map([
      ['nodepool-gpu', 'node-pool'],
      ['cluster', 'cluster'],
      ['provider-config-kubernetes', 'provider-config-kubernetes'],
    ]),
  });
  const at = (line: number, file = 'composer') => `providers/d/function/${file}.py:${line}`;

  it('names the outer gate for the credentials and the gate naming the cluster for the cluster, of nested gates', () => {
    const d = placed();
    expect(placeOfSubject(d, 'node-pool', 'gated-on', { own: ['cluster.ready', 'credentials'], convention: ['cluster.ready'] })).toBe(at(40));
    expect(placeOfSubject(d, 'node-pool', 'gated-on', { own: ['cluster.ready'], convention: ['cluster.exists'] })).toBe(at(48));
    expect(placeOfSubject(d, 'nodepool-gpu', 'credentials-loss-drops-nothing')).toBe(at(40));
    const outcome: Finding = { ...divergence('outcome', { d: { dropped: ['node-pool'] }, a: { dropped: [] } }, { dropped: [] }), provider: 'd', id: 'div:then[0] remove-credentials:outcome:d', subject: 'then[0] remove-credentials' };
    expect(withWhere([outcome], new Map([['d', d]]))[0]!.where).toEqual([at(40)]);
    const lost: Finding = { ...outcome, id: 'div:then[0] delete cluster:outcome:d', subject: 'then[0] delete cluster' };
    expect(withWhere([lost], new Map([['d', d]]))[0]!.where).toEqual([at(48)]);
  });

  it('names the result call that says the message, by its words and severity', () => {
    const d = placed();
    expect(placeOfSubject(d, 'events', 'events', { own: ['Normal: Cluster {xr} is not ready'], convention: ['Normal: Waiting for {cloud} ClusterProviderConfig default'] })).toBe(at(35));
    expect(placeOfSubject(d, 'events', 'events', { own: [], convention: ['Normal: Waiting for {cloud} ClusterProviderConfig default'] })).toBe(at(30));
    expect(placeOfSubject(d, 'events', 'outcome-events', { own: ['Fatal: boom'], convention: [] })).toBe(at(8, 'fn'));
  });

  it('names what marks a resource ready on compose for early readiness, else the readiness mark', () => {
    const d = placed();
    expect(placeOfSubject(d, 'cluster', 'ready-by', { own: ['composed'], convention: [null] })).toBe(at(3));
    expect(placeOfSubject(d, 'cluster', 'ready', { own: 0, convention: null })).toBe(at(3));
    expect(placeOfSubject(d, 'cluster', 'no-early-ready')).toBe(at(3));
    expect(placeOfSubject(d, 'cluster', 'ready', { own: null, convention: 1 })).toBe(at(80));
    expect(placeOfSubject(d, 'cluster', 'readiness-coverage')).toBe(at(80));
  });

  it('names where a label key is written, where the body is made, and where the object is built', () => {
    const d = placed();
    expect(placeOfSubject(d, 'node-pool', 'labels', { own: ['modelplane.ai/pool'], convention: ['modelplane.ai/gpu', 'modelplane.ai/pool'] })).toBe(at(4));
    expect(placeOfSubject(d, 'node-pool', 'intent')).toBe(at(60));
    expect(placeOfSubject(d, 'node-pool', 'provider-config-ref')).toBe(at(60));
    expect(placeOfSubject(d, 'node-pool', 'metadata-namespace')).toBe(at(90));
  });

  it('names the reader it composes for a reader it does not, the def that runs the composers for the whole answer, and each way of a split', () => {
    const d = placed();
    expect(placeOfSubject(d, 'kubeconfig', 'readers', { own: ['provider-config-kubernetes'], convention: ['provider-config-helm', 'provider-config-kubernetes'] })).toBe(at(70));
    const stalled: Finding = { id: 'rule:xr-converges:d:converged', type: 'rule', class: 'contract', provider: 'd', subject: 'converged', facet: 'xr-converges', message: 'm', hint: 'h' };
    expect(withWhere([stalled], new Map([['d', d]]))[0]!.where).toEqual([at(20)]);
    const split: Finding = { id: 'split:node-pool:intent', type: 'split', class: 'behavioral', subject: 'node-pool', facet: 'intent', message: 'm', hint: 'h', groups: [{ value: ['nodeCount'], providers: ['a', 'd'] }, { value: [], providers: ['b'] }] };
    expect(withWhere([split], new Map([['d', d], ['b', source('providers/b', 50)]]))[0]!.where).toEqual([`d: ${at(60)}`, 'b: providers/b/function/composer.py:50']);
  });
});
