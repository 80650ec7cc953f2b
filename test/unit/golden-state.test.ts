/** The golden state over an in-memory environment: matches, counters, additions, obsolete goldens, prune, CRLF. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { parseGolden, parseOutlineGolden, serializeGolden } from '../../src/goldens/format.js';
import { OUTLINE_VERSION } from '../../src/outline/types.js';
import { MemoryEnvironment } from '../../src/goldens/memory.js';
import { GoldenState, type GoldenScope } from '../../src/goldens/state.js';
import { SKELETON_VERSION, type Skeleton } from '../../src/skeleton/types.js';
import { REPO } from '../helpers/project.js';

function skeleton(provider: string, scenario: string, ready = 1): Skeleton {
  return {
    skeleton: SKELETON_VERSION,
    provider,
    scenario,
    converged: { step: ready + 1, xrReady: true },
    requirements: { pc: { apiVersion: 'gcp.m.upbound.io/v1beta1', kind: 'ClusterProviderConfig', select: { name: 'default' }, satisfied: true } },
    status: { appears: 0, secrets: [{ type: 'Kubeconfig', name: '{xr}-kubeconfig', key: 'kubeconfig', appears: 0 }], cache: { storageClassName: 'modelplane-rwx', appears: 1 } },
    resources: {
      cluster: { role: 'cluster', plane: 'cloud', apiVersion: 'container.gcp.m.upbound.io/v1beta1', kind: 'Cluster', appears: 0, ready, readyBy: 'observed', labels: ['modelplane.ai/pool'] },
      'nodepool-gpu': { role: 'node-pool', plane: 'cloud', apiVersion: 'container.gcp.m.upbound.io/v1beta1', kind: 'NodePool', appears: 1, ready: null, readyBy: null, gatedOn: ['cluster.exists'] },
    },
    events: [{ step: 0, severity: 'Normal', message: 'Waiting for {cloud} ClusterProviderConfig "default"' }],
    then: [{ do: 'remove-credentials', dropped: [], unmarked: ['cluster'], statusKept: true, xrReady: false, events: [] }],
  };
}

const SCOPE: GoldenScope = { providers: ['eks', 'gke'], scenarios: ['converge', 'two-pools'] };
const stateOf = (files: Record<string, string>, scope: GoldenScope = SCOPE) => {
  const env = new MemoryEnvironment(files);
  return { env, state: new GoldenState(env, scope) };
};

describe('golden files: one parser, one serializer', () => {
  it('round trip: parsing the serialized skeleton gives the skeleton back, and serializing that gives the same bytes', () => {
    const original = skeleton('gke', 'converge');
    const text = serializeGolden(original);
    const parsed = parseGolden(text, 'goldens/gke/converge.yaml');
    expect(parsed).toEqual({ ok: true, skeleton: original });
    expect(serializeGolden((parsed as { skeleton: Skeleton }).skeleton)).toBe(text);
  });

  it('every committed golden is valid against the schema and is its own canonical serialization', () => {
    // A provider's outline.yaml is its source outline, not a scenario's skeleton (outline.test.ts checks those).
    const files = fg.sync('*/*.yaml', { cwd: path.join(REPO, 'goldens'), ignore: ['*/outline.yaml'] }).sort();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(path.join(REPO, 'goldens', file), 'utf8');
      const parsed = parseGolden(text, file);
      expect(parsed.ok ? 'ok' : parsed.problem, file).toBe('ok');
      expect(serializeGolden((parsed as { skeleton: Skeleton }).skeleton), file).toBe(text);
    }
  });

  it('CRLF line endings parse to the same skeleton', () => {
    const text = serializeGolden(skeleton('gke', 'converge'));
    expect(parseGolden(text.replaceAll('\n', '\r\n'), 'g.yaml')).toEqual(parseGolden(text, 'g.yaml'));
  });

  it('a key the schema does not know is named with file:line:col', () => {
    const text = serializeGolden(skeleton('gke', 'converge')).replace('events:', 'colour: blue\nevents:');
    const line = text.split('\n').indexOf('colour: blue') + 1;
    expect(parseGolden(text, 'goldens/gke/converge.yaml')).toEqual({ ok: false, problem: expect.stringContaining(`goldens/gke/converge.yaml:${line}:1: unknown key "colour"`) });
  });

  it('another skeleton version is named as such, before any schema check', () => {
    const text = serializeGolden({ ...skeleton('gke', 'converge'), skeleton: SKELETON_VERSION + 1 }).replace('events:', 'later: field\nevents:');
    expect(parseGolden(text, 'x.yaml')).toEqual({ ok: false, problem: `skeleton format ${SKELETON_VERSION + 1}, drift writes ${SKELETON_VERSION}` });
  });

  it('another skeleton version the schema would also take is named as such', () => {
    const text = serializeGolden({ ...skeleton('gke', 'converge'), skeleton: SKELETON_VERSION + 1 });
    expect(parseGolden(text, 'x.yaml')).toEqual({ ok: false, problem: `skeleton format ${SKELETON_VERSION + 1}, drift writes ${SKELETON_VERSION}` });
  });

  it('an outline golden is parsed once per text, into a value no reader can change', () => {
    const text = readFileSync(path.join(REPO, 'goldens/gke/outline.yaml'), 'utf8');
    const outline = parseOutlineGolden(text)!;
    expect(outline.outline).toBe(OUTLINE_VERSION);
    expect(parseOutlineGolden(text)).toBe(outline);
    expect(() => Object.assign(Object.values(outline.files)[0]!, { edited: true })).toThrow(TypeError);
    const edited = parseOutlineGolden(`${text}# a comment\n`);
    expect(edited).not.toBe(outline);
    expect(edited).toEqual(outline);
    expect(parseOutlineGolden('outline: [')).toBeUndefined();
  });
});

describe('GoldenState', () => {
  it('match: none for a matching golden, golden findings for a changed or missing one, each counted as it is compared', () => {
    const { state } = stateOf({ 'gke/converge.yaml': serializeGolden(skeleton('gke', 'converge')), 'gke/two-pools.yaml': serializeGolden(skeleton('gke', 'two-pools')) });
    expect(state.counters).toMatchObject({ matched: 0, unmatched: 0 });
    const same = state.match(skeleton('gke', 'converge'));
    expect(state.counters).toMatchObject({ matched: 1, unmatched: 0 });
    const changed = state.match(skeleton('gke', 'two-pools', 2));
    const missing = state.match(skeleton('eks', 'converge'));
    expect(same).toEqual([]);
    expect(changed.map((f) => f.id)).toEqual(['golden:gke/two-pools:converged', 'golden:gke/two-pools:resources.cluster']);
    expect(missing.map((f) => f.id)).toEqual(['golden-missing:eks/converge']);
    expect(state.counters).toMatchObject({ matched: 1, unmatched: 2 });
  });

  it('a golden checked out with CRLF matches, and save leaves it alone', () => {
    const text = serializeGolden(skeleton('gke', 'converge'));
    const { env, state } = stateOf({ 'gke/converge.yaml': text.replaceAll('\n', '\r\n') });
    expect(state.read('gke', 'converge')).toBe(text);
    expect(state.match(skeleton('gke', 'converge'))).toEqual([]);
    expect(state.save(skeleton('gke', 'converge'))).toBe('unchanged');
    expect(env.read('gke/converge.yaml')).toBe(text.replaceAll('\n', '\r\n'));
  });

  it('save: added, updated, unchanged counted, additions listed, the environment holding the serialized text', () => {
    const { env, state } = stateOf({ 'gke/converge.yaml': serializeGolden(skeleton('gke', 'converge')), 'gke/two-pools.yaml': serializeGolden(skeleton('gke', 'two-pools')) });
    expect(state.save(skeleton('gke', 'converge'))).toBe('unchanged');
    expect(state.save(skeleton('gke', 'two-pools', 3))).toBe('updated');
    expect(state.save(skeleton('eks', 'converge'))).toBe('added');
    expect(state.save(skeleton('eks', 'two-pools'))).toBe('added');
    state.refuse();
    expect(state.counters).toEqual({ matched: 0, unmatched: 0, added: 2, updated: 1, unchanged: 1, notWritten: 1, obsolete: 0, removed: 0 });
    expect(state.additions).toEqual(['eks/converge.yaml', 'eks/two-pools.yaml']);
    expect(env.read('gke/two-pools.yaml')).toBe(serializeGolden(skeleton('gke', 'two-pools', 3)));
    expect(env.read('eks/converge.yaml')).toBe(serializeGolden(skeleton('eks', 'converge')));
    // Saving again changes nothing: the second run of an update is all unchanged.
    const again = new GoldenState(env, SCOPE);
    for (const cell of [skeleton('gke', 'converge'), skeleton('gke', 'two-pools', 3), skeleton('eks', 'converge')]) expect(again.save(cell)).toBe('unchanged');
  });

  it('obsolete: goldens of an unknown provider or scenario, only inside the filters; never accepted.yaml or other files', () => {
    const text = serializeGolden(skeleton('gke', 'converge'));
    const files = {
      'gke/converge.yaml': text,
      'gke/gone.yaml': text,
      'aks/converge.yaml': text,
      'eks/gone.yaml': text,
      'accepted.yaml': 'accepted: []\n',
      'gke/notes.txt': 'not a golden',
    };
    expect(stateOf(files).state.obsolete().map((g) => g.file)).toEqual(['aks/converge.yaml', 'eks/gone.yaml', 'gke/gone.yaml']);
    expect(stateOf(files, { ...SCOPE, only: { providers: ['gke'] } }).state.obsolete()).toEqual([{ provider: 'gke', scenario: 'gone', file: 'gke/gone.yaml' }]);
    expect(stateOf(files, { ...SCOPE, only: { scenarios: ['converge'] } }).state.obsolete().map((g) => g.file)).toEqual(['aks/converge.yaml']);
    // A --changed run that renders no provider answers for no provider's goldens.
    expect(stateOf(files, { ...SCOPE, only: { providers: [] } }).state.obsolete()).toEqual([]);
    const { state } = stateOf(files);
    state.obsolete();
    expect(state.counters.obsolete).toBe(3);
  });

  it('prune removes exactly the obsolete goldens and counts them', () => {
    const text = serializeGolden(skeleton('gke', 'converge'));
    const { env, state } = stateOf({ 'gke/converge.yaml': text, 'gke/gone.yaml': text, 'accepted.yaml': 'accepted: []\n' });
    expect(state.prune().map((g) => g.file)).toEqual(['gke/gone.yaml']);
    expect([...env.files.keys()].sort()).toEqual(['accepted.yaml', 'gke/converge.yaml']);
    expect(state.counters).toMatchObject({ obsolete: 1, removed: 1 });
    expect(state.prune()).toEqual([]);
  });

  it('standIn: a current golden as a skeleton; none for a missing, unreadable or other-version one', () => {
    const { state } = stateOf({
      'gke/converge.yaml': serializeGolden(skeleton('gke', 'converge')),
      'gke/two-pools.yaml': 'skeleton: [\n',
      'eks/converge.yaml': serializeGolden({ ...skeleton('eks', 'converge'), skeleton: SKELETON_VERSION + 1 }),
    });
    expect(state.standIn('gke', 'converge')).toEqual(skeleton('gke', 'converge'));
    expect(state.standIn('gke', 'two-pools')).toBeUndefined();
    expect(state.standIn('eks', 'converge')).toBeUndefined();
    expect(state.standIn('eks', 'two-pools')).toBeUndefined();
  });

  it('names golden files in findings under its label', () => {
    const { state } = stateOf({ 'gke/converge.yaml': 'skeleton: [\n' });
    expect(state.name('gke/converge.yaml')).toBe('goldens/gke/converge.yaml');
    expect(state.match(skeleton('gke', 'converge'))[0]!.message).toContain('goldens/gke/converge.yaml:');
  });
});
