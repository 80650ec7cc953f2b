import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAdapter, loadConfig, loadProject, loadScenario } from '../../src/config/load.js';
import { keyPattern, overrideRole } from '../../src/roles/catalog.js';
import type { Adapter, FactRule, Scenario } from '../../src/config/types.js';
import { DriftError, InputError } from '../../src/errors.js';
import { COMPOSITION_RESOURCE_NAME, composedName, FIXED_TIME, materialize } from '../../src/world/materialize.js';
import { buildXR } from '../../src/world/xr.js';
import { xrUid } from '../../src/config/intent.js';
import { tempDir, writeFiles } from '../helpers/project.js';

const temp = tempDir('drift-config-test-');
afterAll(() => temp.remove());

let counter = 0;
/** Writes one file under a fresh subfolder of the temp folder and returns its absolute path. */
function file(name: string, text: string): string {
  counter += 1;
  return writeFiles(temp.dir, { [`${counter}/${name}`]: text })[`${counter}/${name}`]!;
}

/** Runs `load` and returns the InputError it must throw. */
function inputError(load: () => unknown): InputError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but loading succeeded');
}

/** The error names the file, line and column both as fields and as the editor-friendly prefix. */
function expectLocated(error: InputError, where: string, line: number, column: number): void {
  expect(error.file).toBe(where);
  expect([error.line, error.column]).toEqual([line, column]);
  expect(error.message.startsWith(`${where}:${line}:${column}: `)).toBe(true);
}

const SCENARIO = `description: One GPU pool.
xr:
  nodePools:
    - {name: gpu, gpu: L4, gpuCount: 1, nodeCount: 1}
`;

const ADAPTER = `name: demo-cloud
function:
  command: [../venv/bin/python, -m, function.main, --address, "{address}"]
  cwd: fn
  env: {LOG_LEVEL: debug}
xr:
  apiVersion: infrastructure.modelplane.ai/v1alpha1
  kind: DemoCluster
  spec:
    region: r1
    nodePools: '\${pools.map(p, {"name": p.name, "machineType": gpus[p.gpu].machineType, "gpu": {"type": gpus[p.gpu].type, "count": p.gpuCount}, "nodeCount": p.nodeCount})}'
  gpus:
    L4: {machineType: m-l4, type: nvidia-l4}
world:
  observe:
    - {kind: Network, fact: external-name, set: {"metadata.annotations.crossplane\\\\.io/external-name": "{name}"}}
roles: {"nodegroup-{pool}": node-pool}
values: {cloud: Demo}
`;

describe('loadScenario', () => {
  it('loads a valid scenario and fills in the documented defaults', () => {
    const where = file('converge.yaml', SCENARIO);
    const scenario = loadScenario(where);
    // One comparison, so a wrong default shows up next to any other in the diff.
    expect(scenario).toEqual({
      name: 'converge',
      file: where,
      description: 'One GPU pool.',
      // The schema documents these defaults: XR name demo, namespace ml-team (a name no label domain or
      // resource name contains, so templating {namespace} never rewrites `modelplane.ai/...`).
      xr: { name: 'demo', namespace: 'ml-team', nodePools: [{ name: 'gpu', gpu: 'L4', gpuCount: 1, nodeCount: 1 }] },
      world: { credentials: 'present', ready: 'all' },
      then: [],
      // The gating analysis costs one re-simulation per withheld fact: it runs only where asked.
      ablate: false,
    });
  });

  it('keeps explicit values, defaults perturbation steps to 3 and drops `at`', () => {
    const scenario = loadScenario(
      file(
        'lost.yml',
        `description: d
xr:
  name: big
  namespace: team-a
  credentials: {kind: ProviderConfig, name: team-a}
  nodePools: [{name: cpu, nodeCount: 2}]
world: {credentials: present, ready: {except: [cluster]}}
then:
  - {at: converged, do: remove-credentials}
  - {do: unready, role: cluster, steps: 5}
`,
      ),
    );
    expect(scenario.name).toBe('lost');
    expect(scenario.xr).toMatchObject({ name: 'big', namespace: 'team-a', credentials: { kind: 'ProviderConfig', name: 'team-a' } });
    expect(scenario.world.ready).toEqual({ except: ['cluster'] });
    expect(scenario.then).toEqual([
      { do: 'remove-credentials', steps: 3 },
      { do: 'unready', role: 'cluster', steps: 5 },
    ]);
    expect(scenario.ablate).toBe(false);
  });

  it('runs the gating analysis only where a scenario asks for it', () => {
    const pools = 'xr: {nodePools: [{name: gpu, nodeCount: 1}]}\n';
    expect(loadScenario(file('a.yaml', `description: d\n${pools}world: {credentials: missing}\n`)).ablate).toBe(false);
    expect(loadScenario(file('b.yaml', `description: d\n${pools}world: {ready: none}\n`)).ablate).toBe(false);
    expect(loadScenario(file('c.yaml', `description: d\n${pools}world: {ready: {except: [cluster]}}\n`)).ablate).toBe(false);
    expect(loadScenario(file('d.yaml', `description: d\n${pools}world: {ready: none}\nablate: true\n`)).ablate).toBe(true);
    expect(loadScenario(file('e.yaml', `description: d\n${pools}ablate: false\n`)).ablate).toBe(false);
  });

  it('rejects an unknown key at the key itself, and says what to do', () => {
    const where = file('typo.yaml', 'description: d\nxr:\n  nodePools:\n    - {name: gpu, nodeCount: 1, gpuCnt: 2}\n');
    const error = inputError(() => loadScenario(where));
    expectLocated(error, where, 4, 33); // `gpuCnt` starts at column 33 of line 4
    expect(error.problem).toContain('unknown key "gpuCnt"');
    expect(error.problem).toContain('xr.nodePools.0');
    expect(error.problem).toMatch(/remove it or check its spelling/);
  });

  it('rejects a value outside an enum at the value, listing the allowed ones', () => {
    const where = file('enum.yaml', 'description: d\nxr:\n  nodePools: []\nworld:\n  credentials: maybe\n');
    const error = inputError(() => loadScenario(where));
    expectLocated(error, where, 5, 16); // `maybe`
    expect(error.problem).toBe('"world.credentials" must be one of "present", "missing"');
  });

  it('rejects a perturbation kind drift does not know', () => {
    const where = file('perturb.yaml', 'description: d\nxr: {nodePools: []}\nthen:\n  - do: explode\n');
    const error = inputError(() => loadScenario(where));
    expectLocated(error, where, 4, 9); // `explode`
    expect(error.problem).toContain('"then.0.do" must be one of "remove-credentials"');
  });

  it('rejects a missing required key at the mapping that lacks it, naming the key', () => {
    const where = file('missing.yaml', 'description: d\nxr:\n  nodePools:\n    - name: gpu\n      gpu: L4\n');
    const error = inputError(() => loadScenario(where));
    expectLocated(error, where, 4, 7); // the pool mapping starts at `name`
    expect(error.problem).toBe('"xr.nodePools.0" is missing the required key "nodeCount"');
  });

  it('requires a role for unready and delete perturbations', () => {
    const where = file('role.yaml', 'description: d\nxr: {nodePools: []}\nthen:\n  - {do: unready, steps: 2}\n');
    const error = inputError(() => loadScenario(where));
    expectLocated(error, where, 4, 5);
    expect(error.problem).toContain('missing the required key "role"');
  });

  it('reports a missing top-level key against the document', () => {
    const where = file('nodesc.yaml', 'xr: {nodePools: []}\n');
    const error = inputError(() => loadScenario(where));
    expectLocated(error, where, 1, 1);
    expect(error.problem).toBe('the document is missing the required key "description"');
  });

  it('rejects invalid YAML where the parser stopped', () => {
    const where = file('broken.yaml', 'description: d\nxr:\n  nodePools:\n  - name: a\n   nodeCount: 1\n');
    const error = inputError(() => loadScenario(where));
    expectLocated(error, where, 5, 1);
    expect(error.problem).toMatch(/^not valid YAML: /);
    expect(error.problem).not.toContain('\n');
  });

  it('rejects an unclosed flow sequence as invalid YAML', () => {
    const where = file('unclosed.yaml', 'description: d\nxr:\n  nodePools: [\n    {name: gpu, nodeCount: 1}\nworld: {}\n');
    const error = inputError(() => loadScenario(where));
    expect(error.file).toBe(where);
    expect(error.line).toBeGreaterThanOrEqual(3);
    expect(error.problem).toMatch(/^not valid YAML: .*\]/);
  });

  it('rejects duplicate keys rather than silently keeping the last one', () => {
    const where = file('dup.yaml', 'description: d\ndescription: e\nxr: {nodePools: []}\n');
    const error = inputError(() => loadScenario(where));
    expectLocated(error, where, 2, 1);
    expect(error.problem).toMatch(/not valid YAML: .*unique/i);
  });

  it('rejects a node pool listed twice, at the second one', () => {
    const where = file('twice.yaml', 'description: d\nxr:\n  nodePools:\n    - {name: a, nodeCount: 1}\n    - {name: a, nodeCount: 2}\n');
    const error = inputError(() => loadScenario(where));
    expectLocated(error, where, 5, 14); // the second `a`
    expect(error.problem).toContain('node pool "a" is listed twice');
  });
});

describe('YAML input files', () => {
  it('an alias bomb is refused with the file, line and column of its first alias, not expanded', () => {
    const { dir, remove } = tempDir();
    try {
      const lines = ['description: boom', 'a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)];
      const file = writeFiles(dir, { 'scenarios/bomb.yaml': `${lines.join('\n')}\n` })['scenarios/bomb.yaml']!;
      const error = (() => {
        try {
          loadScenario(file);
        } catch (thrown) {
          return thrown;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:8: its aliases expand too far`));
    } finally {
      remove();
    }
  });
});

describe('loadAdapter', () => {
  it('loads a valid adapter and resolves paths against its folder', () => {
    const where = file('provider.yaml', ADAPTER);
    const dir = path.dirname(where);
    const adapter = loadAdapter(where);
    expect(adapter.name).toBe('demo-cloud');
    expect(adapter.file).toBe(where);
    expect(adapter.dir).toBe(dir);
    // A program given as a path belongs to the adapter's folder; the other arguments stay as written.
    expect(adapter.function.command).toEqual([path.resolve(dir, '../venv/bin/python'), '-m', 'function.main', '--address', '{address}']);
    expect(adapter.function.cwd).toBe(path.join(dir, 'fn'));
    expect(adapter.function.env).toEqual({ LOG_LEVEL: 'debug' });
    expect(adapter.xr.gpus.L4).toEqual({ machineType: 'm-l4', type: 'nvidia-l4' });
    expect(adapter.world.credentials).toEqual([]);
    expect(adapter.world.observe).toEqual([
      { kind: 'Network', fact: 'external-name', set: { 'metadata.annotations.crossplane\\.io/external-name': '{name}' } },
    ]);
    expect(adapter.roles).toEqual({ 'nodegroup-{pool}': 'node-pool' });
    expect(adapter.values).toEqual({ cloud: 'Demo' });
  });

  it('looks a bare program up on PATH and defaults cwd to its folder', () => {
    const where = file('provider.yaml', 'name: bare\nfunction: {command: [python3, main.py]}\nxr: {apiVersion: v1, kind: K}\n');
    const adapter = loadAdapter(where);
    expect(adapter.function.command).toEqual(['python3', 'main.py']);
    expect(adapter.function.cwd).toBe(path.dirname(where));
    expect(adapter.xr).toEqual({ apiVersion: 'v1', kind: 'K', spec: {}, gpus: {}, ignore: {} });
    expect(adapter.xrd).toBeUndefined();
  });

  it('refuses the retired `reference` key at its line, saying why and what to do', () => {
    const where = file('drift.config.yaml', 'providers: p/*.yaml\ngoldens: g\nreference: gke\n');
    const error = inputError(() => loadConfig(where));
    expectLocated(error, where, 3, 12);
    expect(error.message).toMatch(/"reference" is retired: no provider breaks ties any more .*split.*; remove this line/);
  });

  it('rejects the old per-pool template with a migration hint', () => {
    const where = file('provider.yaml', 'name: x\nfunction: {command: [python3]}\nxr:\n  apiVersion: v1\n  kind: K\n  nodePool: {machineType: "${gpu.machineType}"}\n');
    const error = inputError(() => loadAdapter(where));
    expectLocated(error, where, 6, 13);
    expect(error.problem).toMatch(/^xr\.nodePool is no longer read: map the pools in xr\.spec with CEL/);
  });

  it('rejects an unknown key', () => {
    const where = file('provider.yaml', 'name: x\nfunction: {command: [python3]}\nxr: {apiVersion: v1, kind: K}\nrole: {}\n');
    const error = inputError(() => loadAdapter(where));
    expectLocated(error, where, 4, 1);
    expect(error.problem).toContain('unknown key "role" in the document');
  });

  it('rejects a provider name that is not a lowercase slug', () => {
    const where = file('provider.yaml', 'name: GKE\nfunction: {command: [python3]}\nxr: {apiVersion: v1, kind: K}\n');
    const error = inputError(() => loadAdapter(where));
    expectLocated(error, where, 1, 7);
    expect(error.problem).toContain('"name" must match');
    expect(error.problem).toContain('lowercase letters, digits and dashes');
  });

  it('rejects an observe rule without its fact name', () => {
    const where = file(
      'provider.yaml',
      'name: x\nfunction: {command: [python3]}\nxr: {apiVersion: v1, kind: K}\nworld:\n  observe:\n    - {kind: Network, set: {a: b}}\n',
    );
    const error = inputError(() => loadAdapter(where));
    expectLocated(error, where, 6, 7);
    expect(error.problem).toBe('"world.observe.0" is missing the required key "fact"');
  });

  it('rejects a missing function', () => {
    const where = file('provider.yaml', 'name: x\nxr: {apiVersion: v1, kind: K}\n');
    const error = inputError(() => loadAdapter(where));
    expectLocated(error, where, 1, 1);
    expect(error.problem).toContain('missing the required key "function"');
  });
});

describe('loadConfig', () => {
  it('falls back to defaults rooted at the working folder when there is no config file', () => {
    const cwd = path.dirname(file('README', 'no config here\n'));
    const config = loadConfig(undefined, cwd);
    expect(config.root).toBe(cwd);
    expect(config.file).toBeUndefined();
    expect(config.providers).toEqual(['providers/*/provider.yaml']);
    expect(config.scenarios).toEqual(['scenarios/*.yaml']);
    expect(config.goldens).toBe('goldens');
    expect(config.maxSteps).toBe(8);
    expect(config.timeouts).toEqual({ startMs: 30_000, callMs: 10_000 });
    expect(config.concurrency).toBeGreaterThanOrEqual(1);
  });

  it('loads a config, turns single globs into lists and merges partial timeouts', () => {
    const where = file('drift.config.yaml', 'providers: p/*.yaml\nscenarios: [s/a.yaml, s/b.yaml]\nconcurrency: 3\ntimeouts: {callMs: 500}\n');
    const config = loadConfig(where);
    expect(config).toMatchObject({
      root: path.dirname(where),
      file: where,
      providers: ['p/*.yaml'],
      scenarios: ['s/a.yaml', 's/b.yaml'],
      concurrency: 3,
      timeouts: { startMs: 30_000, callMs: 500 },
    });
  });

  it('finds drift.config.yaml in the working folder, and resolves --config against it', () => {
    const where = file('drift.config.yaml', 'maxSteps: 4\n');
    const cwd = path.dirname(where);
    expect(loadConfig(undefined, cwd).maxSteps).toBe(4);
    expect(loadConfig('drift.config.yaml', cwd).file).toBe(where);
  });

  it('says so when an explicit config file does not exist', () => {
    expect(() => loadConfig('nope/drift.config.yaml', temp.dir)).toThrow(DriftError);
    expect(() => loadConfig('nope/drift.config.yaml', temp.dir)).toThrow(/nope\/drift\.config\.yaml: no such config file/);
  });

  it('rejects an unknown key', () => {
    const where = file('drift.config.yaml', 'providers: p/*.yaml\nconcurency: 2\n');
    const error = inputError(() => loadConfig(where));
    expectLocated(error, where, 2, 1);
    expect(error.problem).toBe('unknown key "concurency" in the document; remove it or check its spelling');
  });

  it('rejects a nested unknown key at its own line', () => {
    const where = file('drift.config.yaml', 'timeouts:\n  startMs: 1000\n  callMS: 10\n');
    const error = inputError(() => loadConfig(where));
    expectLocated(error, where, 3, 3);
    expect(error.problem).toContain('unknown key "callMS" in "timeouts"');
  });

  it('rejects a value of the wrong type at the value', () => {
    const where = file('drift.config.yaml', 'concurrency: many\n');
    const error = inputError(() => loadConfig(where));
    expectLocated(error, where, 1, 14);
    expect(error.problem).toBe('"concurrency" must be integer');
  });

  it('says so when --config names a folder, instead of failing inside the YAML reader', () => {
    const folder = path.dirname(file('README', 'a folder\n'));
    expect(() => loadConfig(folder)).toThrow(DriftError);
    expect(() => loadConfig(folder)).toThrow(`${folder}: is a folder, not a config file; pass the path of a drift.config.yaml`);
  });

  it('rejects maxSteps below 2: a fixpoint needs two equal steps', () => {
    const where = file('drift.config.yaml', 'maxSteps: 1\n');
    const error = inputError(() => loadConfig(where));
    expectLocated(error, where, 1, 11);
    expect(error.problem).toBe('"maxSteps" must be >= 2');
    expect(loadConfig(file('drift.config.yaml', 'maxSteps: 2\n')).maxSteps).toBe(2);
  });

  it('rejects invalid YAML', () => {
    const where = file('drift.config.yaml', 'providers: [a\n');
    const error = inputError(() => loadConfig(where));
    expect(error.file).toBe(where);
    expect(error.line).toBeGreaterThanOrEqual(1);
    expect(error.problem).toMatch(/^not valid YAML: /);
  });
});

describe('loadProject', () => {
  const pools = 'xr:\n  nodePools: [{name: gpu, gpu: L4, nodeCount: 1}]\n';
  const adapterText = (name: string, extra = '') =>
    `name: ${name}\nfunction: {command: [python3]}\nxr:\n  apiVersion: v1\n  kind: K\n  gpus:\n    L4: {type: l4}\n  spec: {nodePools: "\${pools}"}\n${extra}`;

  /** A project folder: drift.config.yaml, providers/<name>/provider.yaml and scenario files. */
  function project(files: Record<string, string>): { dir: string; files: Record<string, string> } {
    counter += 1;
    const dir = path.join(temp.dir, `project-${counter}`);
    const written = writeFiles(dir, { 'drift.config.yaml': 'providers: providers/*/provider.yaml\nscenarios: [scenarios/*.yaml, more/*.yaml]\n', ...files });
    return { dir, files: written };
  }

  async function projectError(dir: string): Promise<InputError> {
    const error = await loadProject(undefined, dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }

  it('accepts contract roles and roles an adapter declares, in perturbations and readiness', async () => {
    const { dir } = project({
      'providers/a/provider.yaml': adapterText('a', 'roles: {"nodegroup-{pool}": gpu-group}\n'),
      'providers/b/provider.yaml': adapterText('b'),
      'scenarios/s.yaml': `description: d\n${pools}world: {ready: {except: [gpu-group, cluster]}}\nthen:\n  - {do: delete, role: node-pool}\n  - {do: unready, role: gpu-group}\n`,
    });
    const loaded = await loadProject(undefined, dir);
    expect(loaded.scenarios.map((s) => s.name)).toEqual(['s']);
  });

  it('rejects a perturbation role nobody knows, at the role, listing the known ones', async () => {
    const { dir, files } = project({
      'providers/a/provider.yaml': adapterText('a', 'roles: {"subnet-{zone}": subnet, "iam-{x}": iam}\n'),
      'scenarios/s.yaml': `description: d\n${pools}then:\n  - {do: remove-credentials}\n  - {do: unready, role: clsuter}\n`,
    });
    const error = await projectError(dir);
    expectLocated(error, files['scenarios/s.yaml']!, 6, 25); // `clsuter`
    expect(error.problem).toBe(
      'then.1.role: "clsuter" is not a known role; use a contract role or one an adapter\'s roles map declares: ' +
        'cache-storage-class, cluster, iam, network, node-pool, provider-config-helm, provider-config-kubernetes, subnet, system-pool',
    );
  });

  it('accepts withdraw-fact of a fact some adapter publishes, and roles the adapters play inline', async () => {
    const { dir } = project({
      'providers/a/provider.yaml': adapterText('a', 'world:\n  observe:\n    - {kind: Network, fact: external-name, set: {status.id: "{name}"}}\ninline: {boot-pool: cluster}\n'),
      'scenarios/s.yaml': `description: d\n${pools}then:\n  - {do: withdraw-fact, fact: external-name}\n  - {do: withdraw-fact, role: network, fact: external-name}\n  - {do: unready, role: boot-pool}\n  - {do: break-credentials}\n`,
    });
    const loaded = await loadProject(undefined, dir);
    expect(loaded.scenarios[0]!.then).toEqual([
      { do: 'withdraw-fact', fact: 'external-name', steps: 3 },
      { do: 'withdraw-fact', role: 'network', fact: 'external-name', steps: 3 },
      { do: 'unready', role: 'boot-pool', steps: 3 },
      { do: 'break-credentials', steps: 3 },
    ]);
    expect(loaded.adapters[0]!.inline).toEqual({ 'boot-pool': 'cluster' });
    // No brokenCredentials: unusable means a source that is not a Secret.
    expect(loaded.adapters[0]!.world.brokenCredentials).toEqual({ spec: { credentials: { source: 'InjectedIdentity', secretRef: null } } });
  });

  it('rejects withdraw-fact of a fact no adapter publishes, at the fact, listing the known ones', async () => {
    const { dir, files } = project({
      'providers/a/provider.yaml': adapterText('a', 'world:\n  observe:\n    - {kind: Network, fact: external-name, set: {status.id: "{name}"}}\n    - {kind: Role, fact: arn, set: {status.arn: "{name}"}}\n'),
      'scenarios/s.yaml': `description: d\n${pools}then:\n  - {do: withdraw-fact, fact: email}\n`,
    });
    const error = await projectError(dir);
    expectLocated(error, files['scenarios/s.yaml']!, 5, 31); // `email`
    expect(error.problem).toBe('then.0.fact: "email" is no adapter\'s cloud fact; use one an adapter\'s world.observe declares (arn, external-name), or every for all of them');
  });

  it('rejects withdraw-fact without a fact, and a fact on another verb', async () => {
    const missing = project({ 'providers/a/provider.yaml': adapterText('a'), 'scenarios/s.yaml': `description: d\n${pools}then:\n  - {do: withdraw-fact}\n` });
    expect((await projectError(missing.dir)).problem).toMatch(/fact/);
    const stray = project({ 'providers/a/provider.yaml': adapterText('a'), 'scenarios/s.yaml': `description: d\n${pools}then:\n  - {do: remove-credentials, fact: email}\n` });
    await expect(loadProject(undefined, stray.dir)).rejects.toBeInstanceOf(InputError);
  });

  it('rejects an unknown role in world.ready.except, at the entry', async () => {
    const { dir, files } = project({
      'providers/a/provider.yaml': adapterText('a'),
      'scenarios/s.yaml': `description: d\n${pools}world:\n  ready:\n    except:\n      - cluster\n      - nodepool\n`,
    });
    const error = await projectError(dir);
    expectLocated(error, files['scenarios/s.yaml']!, 8, 9);
    expect(error.problem).toMatch(/^world\.ready\.except\.1: "nodepool" is not a known role; .*: cache-storage-class, cluster, network, node-pool,/);
  });

  it('rejects two scenario files with the same name', async () => {
    const { dir, files } = project({
      'providers/a/provider.yaml': adapterText('a'),
      'scenarios/converge.yaml': `description: d\n${pools}`,
      'more/converge.yaml': `description: e\n${pools}`,
    });
    const error = await projectError(dir);
    // Matches are sorted by path: more/ comes first, so the one under scenarios/ is the duplicate.
    expectLocated(error, files['scenarios/converge.yaml']!, 1, 1);
    expect(error.problem).toBe(`scenario name "converge" (from the file name) is also used by ${files['more/converge.yaml']}; rename one of the files`);
  });

  it('rejects two providers with the same name, at the name', async () => {
    const { dir, files } = project({
      'providers/a/provider.yaml': adapterText('same'),
      'providers/b/provider.yaml': `# the second\n${adapterText('same')}`,
      'scenarios/s.yaml': `description: d\n${pools}`,
    });
    const error = await projectError(dir);
    expectLocated(error, files['providers/b/provider.yaml']!, 2, 7);
    expect(error.problem).toContain('provider name "same" is also used by');
  });

  it('rejects a GPU an adapter does not map, at its xr.gpus', async () => {
    const { dir, files } = project({
      'providers/a/provider.yaml': adapterText('a'),
      'scenarios/s.yaml': 'description: d\nxr:\n  nodePools: [{name: gpu, gpu: H100, nodeCount: 1}]\n',
    });
    const error = await projectError(dir);
    expectLocated(error, files['providers/a/provider.yaml']!, 7, 5); // the mapping under `gpus:`
    expect(error.problem).toBe('scenario scenarios/s.yaml asks for GPU "H100", which xr.gpus does not map; add it');
  });

  const poolsOnly = 'xr:\n  apiVersion: example.org/v1\n  kind: Demo\n  spec:\n    nodePools: \'${pools.map(p, {"name": p.name, "nodeCount": p.nodeCount})}\'\n';

  it('rejects an intent field the adapter never places, naming the adapter line and the scenario line', async () => {
    const { dir, files } = project({
      'providers/a/provider.yaml': `name: a\nfunction: {command: [python3]}\n${poolsOnly}`,
      'scenarios/s.yaml': 'description: d\nxr:\n  nodePools:\n    - {name: gpu, nodeCount: 1, zones: 2}\n',
    });
    const error = await projectError(dir);
    expectLocated(error, files['providers/a/provider.yaml']!, 7, 5); // the mapping under `spec:`
    expect(error.problem).toMatch(/^scenario scenarios\/s\.yaml:4:40 sets pools\[0\]\.zones, but xr\.spec never reads it/);
  });

  it('rejects credentials the adapter never places, instead of copying them', async () => {
    const { dir } = project({
      'providers/a/provider.yaml': `name: a\nfunction: {command: [python3]}\n${poolsOnly}`,
      'scenarios/s.yaml': 'description: d\nxr:\n  credentials: {kind: ProviderConfig, name: team-a}\n  nodePools: [{name: gpu, nodeCount: 1}]\n',
    });
    expect((await projectError(dir)).problem).toMatch(/^scenario scenarios\/s\.yaml:3:23 sets credentials\.kind/);
  });

  it('points a failing CEL expression at its line', async () => {
    const { dir, files } = project({
      'providers/a/provider.yaml': `name: a\nfunction: {command: [python3]}\nxr:\n  apiVersion: v1\n  kind: K\n  spec:\n    region: r\n    nodePools: '\${pools.map(p, p.nam)}'\n`,
      'scenarios/s.yaml': `description: d\n${pools.replace('gpu: L4, ', '')}`,
    });
    const error = await projectError(dir);
    expectLocated(error, files['providers/a/provider.yaml']!, 8, 16);
    expect(error.problem).toMatch(/^xr template, for scenario scenarios\/s\.yaml: \$\{pools\.map\(p, p\.nam\)\}: /);
  });

  const XRD = `apiVersion: apiextensions.crossplane.io/v2
kind: CompositeResourceDefinition
spec:
  group: example.org
  names: {kind: Demo, plural: demos}
  versions:
    - name: v1
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                nodePools:
                  type: array
                  items:
                    type: object
                    x-kubernetes-validations:
                      - {rule: self.nodeCount <= 2, message: at most two nodes}
                    properties:
                      name: {type: string}
                      nodeCount: {type: integer}
                      region: {type: string, default: here}
`;

  it('validates and defaults every XR against the XRD the adapter names', async () => {
    const { dir } = project({
      'providers/a/provider.yaml': `name: a\nfunction: {command: [python3]}\nxrd: apis/definition.yaml\n${poolsOnly}`,
      'providers/a/apis/definition.yaml': XRD,
      'scenarios/s.yaml': 'description: d\nxr:\n  nodePools: [{name: gpu, nodeCount: 2}]\n',
    });
    const loaded = await loadProject(undefined, dir);
    expect(loaded.warnings).toEqual([]);
    expect(buildXR(loaded.adapters[0]!, loaded.scenarios[0]!).spec).toEqual({ nodePools: [{ name: 'gpu', nodeCount: 2, region: 'here' }] });
  });

  it('rejects an XR its XRD rejects, at the adapter line, with the XRD line and schema path', async () => {
    const { dir, files } = project({
      'providers/a/provider.yaml': `name: a\nfunction: {command: [python3]}\nxrd: apis/definition.yaml\n${poolsOnly}`,
      'providers/a/apis/definition.yaml': XRD,
      'scenarios/s.yaml': 'description: d\nxr:\n  nodePools: [{name: gpu, nodeCount: 3}]\n',
    });
    const error = await projectError(dir);
    expectLocated(error, files['providers/a/provider.yaml']!, 8, 16); // the nodePools expression
    expect(error.problem).toBe(
      'the XR for scenario scenarios/s.yaml is rejected by its XRD: spec.nodePools.0: at most two nodes ' +
        '(providers/a/apis/definition.yaml:20:25, openAPIV3Schema.properties.spec.properties.nodePools.items.x-kubernetes-validations.0); fix xr.spec or the XRD',
    );
  });

  it('rejects an xrd path that is not a file, at the xrd key', async () => {
    const { dir, files } = project({
      'providers/a/provider.yaml': `name: a\nfunction: {command: [python3]}\nxrd: apis/missing.yaml\n${poolsOnly}`,
      'scenarios/s.yaml': `description: d\n${pools}`,
    });
    const error = await projectError(dir);
    expectLocated(error, files['providers/a/provider.yaml']!, 3, 6);
    expect(error.problem).toMatch(/^xrd "apis\/missing\.yaml" is not a file/);
  });

  it('warns about an XRD rule it cannot evaluate', async () => {
    const { dir } = project({
      'providers/a/provider.yaml': `name: a\nfunction: {command: [python3]}\nxrd: apis/definition.yaml\n${poolsOnly}`,
      'providers/a/apis/definition.yaml': XRD.replace('self.nodeCount <= 2', 'self.name.isQuantity()'),
      'scenarios/s.yaml': 'description: d\nxr:\n  nodePools: [{name: gpu, nodeCount: 3}]\n',
    });
    const loaded = await loadProject(undefined, dir);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings![0]).toMatch(/^providers\/a\/apis\/definition\.yaml:20:25: warning: rule "self\.name\.isQuantity\(\)" not checked: /);
  });

  it('keeps the intent check of a project that passed: the same warnings again, new ones when the XRD text moves, a failure never kept', async () => {
    const { dir, files } = project({
      'providers/a/provider.yaml': `name: a\nfunction: {command: [python3]}\nxrd: apis/definition.yaml\n${poolsOnly}`,
      'providers/a/apis/definition.yaml': XRD.replace('self.nodeCount <= 2', 'self.name.isQuantity()'),
      'scenarios/s.yaml': 'description: d\nxr:\n  nodePools: [{name: gpu, nodeCount: 3}]\n',
    });
    const env = { DRIFT_CACHE_DIR: path.join(dir, '.cache') };
    const verdicts = () => readdirSync(path.join(dir, '.cache', 'documents')).length;
    const first = await loadProject(undefined, dir, env);
    const kept = verdicts();
    const second = await loadProject(undefined, dir, env);
    expect(second.warnings).toEqual(first.warnings);
    expect(second.warnings![0]).toMatch(/^providers\/a\/apis\/definition\.yaml:20:25: warning: /);
    expect(verdicts()).toBe(kept);
    const xrd = files['providers/a/apis/definition.yaml']!;
    writeFileSync(xrd, `# moved one line down\n${readFileSync(xrd, 'utf8')}`);
    expect((await loadProject(undefined, dir, env)).warnings![0]).toMatch(/^providers\/a\/apis\/definition\.yaml:21:25: warning: /);
    writeFileSync(xrd, XRD);
    for (let i = 0; i < 2; i += 1) expect((await loadProject(undefined, dir, env).catch((e: unknown) => e)) as Error).toBeInstanceOf(InputError);
    writeFileSync(xrd, XRD.replace('nodeCount <= 2', 'nodeCount <= 3'));
    expect((await loadProject(undefined, dir, env)).warnings).toEqual([]);
  });
});

function adapter(overrides: Partial<Adapter> = {}): Adapter {
  return {
    name: 'demo',
    file: '/x/provider.yaml',
    dir: '/x',
    function: { command: ['python3'], cwd: '/x', env: {} },
    xr: {
      apiVersion: 'infrastructure.modelplane.ai/v1alpha1',
      kind: 'GKECluster',
      spec: {
        region: 'us-central1',
        credentials: '${credentials}',
        nodePools:
          '${pools.map(p, {"name": p.name, "nodeCount": p.nodeCount, "maxNodeCount": p.?maxNodeCount.orValue(null), "machineType": has(p.gpu) ? gpus[p.gpu].machineType : null, "gpu": has(p.gpu) ? dyn({"type": gpus[p.gpu].type, "count": p.gpuCount}) : null})}',
      },
      gpus: { L4: { machineType: 'g2-standard-8', type: 'nvidia-l4' } },
      ignore: {},
    },
    world: { credentials: [], observe: [], brokenCredentials: {} },
    roles: {},
    inline: {},
    values: {},
    source: { root: '/x', include: ['**/*.py'] },
    ...overrides,
  };
}

function scenario(xr: Partial<Scenario['xr']> = {}): Scenario {
  return {
    name: 's',
    file: '/s.yaml',
    description: 'd',
    xr: { name: 'demo', namespace: 'modelplane', nodePools: [], ...xr },
    world: { credentials: 'present', ready: 'all' },
    then: [],
    ablate: false,
  };
}

describe('buildXR', () => {
  it("builds the provider's XR from the adapter's template over the scenario's intent", () => {
    const s = scenario({
      nodePools: [
        { name: 'gpu', gpu: 'L4', gpuCount: 2, nodeCount: 1, maxNodeCount: 4 },
        { name: 'cpu', nodeCount: 3 },
      ],
    });
    const xr = buildXR(adapter(), s);
    expect(xr.apiVersion).toBe('infrastructure.modelplane.ai/v1alpha1');
    expect(xr.kind).toBe('GKECluster');
    expect(xr.metadata).toEqual({ name: 'demo', namespace: 'modelplane', uid: xrUid(s) });
    expect(xr.spec).toEqual({
      region: 'us-central1',
      // No credentials in the scenario: the template's whole-map copy is an empty map.
      credentials: {},
      nodePools: [
        // The scenario's gpu name and gpuCount become the cloud's fields; the count keeps its number type.
        { name: 'gpu', nodeCount: 1, maxNodeCount: 4, machineType: 'g2-standard-8', gpu: { type: 'nvidia-l4', count: 2 } },
        { name: 'cpu', nodeCount: 3 },
      ],
    });
  });

  it('passes the credentials reference through and never mutates the adapter', () => {
    const a = adapter();
    const before = structuredClone(a);
    const xr = buildXR(a, scenario({ credentials: { kind: 'ProviderConfig', name: 'team-a' } }));
    expect((xr.spec as { credentials?: unknown }).credentials).toEqual({ kind: 'ProviderConfig', name: 'team-a' });
    expect(a).toEqual(before);
  });

  it('gives the same XR, uid included, every time; other names get other uids', () => {
    const s = scenario({ nodePools: [{ name: 'gpu', gpu: 'L4', gpuCount: 1, nodeCount: 1 }] });
    expect(buildXR(adapter(), s)).toEqual(buildXR(adapter(), s));
    // Built once per adapter × scenario, but each caller gets its own copy: a world writes its status.
    const a = adapter();
    const first = buildXR(a, s);
    first.status = { written: true };
    (first.spec as { region: string }).region = 'changed';
    expect(buildXR(a, s)).toEqual(buildXR(adapter(), s));
    expect(xrUid(s)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(xrUid(scenario({ name: 'other' }))).not.toBe(xrUid(s));
    expect(xrUid(scenario({ namespace: 'other' }))).not.toBe(xrUid(s));
  });
});

describe('overrideRole: the adapter roles map', () => {
  it('gives no role where the adapter says nothing: inference decides', () => {
    expect(overrideRole({ roles: {} }, 'cluster', ['gpu'])).toBeUndefined();
    expect(overrideRole({ roles: {} }, 'nodepool-gpu', ['gpu'])).toBeUndefined();
  });

  it("prefers an exact key over a pattern, and matches {pool} against the scenario's pool names only", () => {
    const roles = { roles: { 'nodegroup-{pool}': 'node-pool', 'nodegroup-system': 'system-pool', 'subnet-{zone}': 'subnet' } };
    expect(overrideRole(roles, 'nodegroup-system', ['gpu'])).toBe('system-pool');
    expect(overrideRole(roles, 'nodegroup-gpu', ['gpu', 'cpu'])).toBe('node-pool');
    expect(overrideRole(roles, 'nodegroup-tpu', ['gpu'])).toBeUndefined();
    expect(overrideRole(roles, 'nodegroup-gpu-extra', ['gpu'])).toBeUndefined();
    // Without pool names, any slug counts.
    expect(overrideRole(roles, 'nodegroup-anything', [])).toBe('node-pool');
    expect(overrideRole(roles, 'subnet-a', ['gpu'])).toBe('subnet');
    expect(overrideRole(roles, 'subnet-A', ['gpu'])).toBeUndefined(); // placeholders match lowercase slugs
  });

  it('treats pattern text literally', () => {
    const dotted = { roles: { 'pool.{pool}': 'node-pool' } };
    expect(overrideRole(dotted, 'pool.gpu', ['gpu'])).toBe('node-pool');
    expect(overrideRole(dotted, 'poolxgpu', ['gpu'])).toBeUndefined();
  });
});

describe('keyPattern', () => {
  it('abstracts a pool name suffix', () => {
    expect(keyPattern('nodepool-gpu', ['gpu'])).toBe('nodepool-{pool}');
    expect(keyPattern('nodegroup-training', ['inference', 'training'])).toBe('nodegroup-{pool}');
  });

  it('tries the longest pool name first', () => {
    expect(keyPattern('nodepool-big-gpu', ['gpu', 'big-gpu'])).toBe('nodepool-{pool}');
  });

  it('leaves other keys alone', () => {
    expect(keyPattern('cluster', ['gpu'])).toBe('cluster');
    expect(keyPattern('nodepool-system', ['gpu'])).toBe('nodepool-system');
    expect(keyPattern('gpu', ['gpu'])).toBe('gpu'); // the pool name alone has no "-" before it
    expect(keyPattern('nodepool-gpu', [])).toBe('nodepool-gpu');
  });
});

describe('composedName', () => {
  const xr = { apiVersion: 'v1', kind: 'K', metadata: { name: 'demo', namespace: 'ns', uid: 'uid-1' } };

  it('is <xr>-<12 hex of sha256(uid + key)>, as Crossplane names composed resources', () => {
    const expected = `demo-${createHash('sha256').update('uid-1cluster').digest('hex').slice(0, 12)}`;
    expect(composedName(xr, 'cluster')).toBe(expected);
    expect(composedName(xr, 'cluster')).toMatch(/^demo-[0-9a-f]{12}$/);
  });

  it('differs per key and per uid, and is stable', () => {
    expect(composedName(xr, 'network')).not.toBe(composedName(xr, 'cluster'));
    expect(composedName({ ...xr, metadata: { ...xr.metadata, uid: 'uid-2' } }, 'cluster')).not.toBe(composedName(xr, 'cluster'));
    expect(composedName(xr, 'cluster')).toBe(composedName(structuredClone(xr), 'cluster'));
  });
});

describe('materialize', () => {
  const xr = { apiVersion: 'v1', kind: 'K', metadata: { name: 'demo', namespace: 'modelplane', uid: 'u' } };
  const network = {
    apiVersion: 'compute.gcp.m.upbound.io/v1beta1',
    kind: 'Network',
    metadata: { labels: { a: 'b' }, annotations: { keep: 'me' } },
    spec: { forProvider: { autoCreateSubnetworks: false } },
  };
  const facts: FactRule[] = [
    { kind: 'Network', fact: 'external-name', set: { 'metadata.annotations.crossplane\\.io/external-name': 'net-{name}' } },
    { kind: 'Network', fact: 'self-link', set: { 'status.atProvider.selfLink': 'projects/p/networks/{name}' } },
  ];

  it('names a new resource deterministically and observes it as Crossplane would', () => {
    const observed = materialize({ xr, key: 'network', desired: network, existingName: undefined, ready: true, facts: [] });
    const name = composedName(xr, 'network');
    expect(observed.metadata).toEqual({
      labels: { a: 'b' },
      name,
      namespace: 'modelplane',
      annotations: { keep: 'me', [COMPOSITION_RESOURCE_NAME]: 'network' },
    });
    expect(observed.spec).toEqual(network.spec);
    expect(observed.status).toEqual({
      conditions: [
        { type: 'Ready', status: 'True', reason: 'Available', lastTransitionTime: FIXED_TIME },
        { type: 'Synced', status: 'True', reason: 'ReconcileSuccess', lastTransitionTime: FIXED_TIME },
      ],
    });
    expect(materialize({ xr, key: 'network', desired: network, existingName: undefined, ready: true, facts: [] })).toEqual(observed);
  });

  it('keeps an existing name over a generated or desired one', () => {
    const named = { ...network, metadata: { name: 'desired-name' } };
    expect(materialize({ xr, key: 'network', desired: named, existingName: 'old-name', ready: true, facts: [] }).metadata).toMatchObject({
      name: 'old-name',
    });
    expect(materialize({ xr, key: 'network', desired: named, existingName: undefined, ready: true, facts: [] }).metadata).toMatchObject({
      name: 'desired-name',
    });
  });

  it('reports not-ready resources as Creating, and keeps an explicit namespace', () => {
    const desired = { ...network, metadata: { namespace: 'elsewhere' } };
    const observed = materialize({ xr, key: 'network', desired, existingName: undefined, ready: false, facts: [] });
    expect((observed.metadata as { namespace: string }).namespace).toBe('elsewhere');
    expect((observed.status as { conditions: unknown[] }).conditions[0]).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'Creating',
      lastTransitionTime: FIXED_TIME,
    });
  });

  it('sets cloud facts, with escaped dots kept inside one path segment and {name} filled in', () => {
    const observed = materialize({ xr, key: 'network', desired: network, existingName: 'net-1', ready: true, facts });
    const metadata = observed.metadata as { annotations: Record<string, unknown> };
    expect(metadata.annotations).toEqual({
      keep: 'me',
      [COMPOSITION_RESOURCE_NAME]: 'network',
      'crossplane.io/external-name': 'net-net-1',
    });
    expect(metadata.annotations).not.toHaveProperty('crossplane');
    expect((observed.status as { atProvider: unknown }).atProvider).toEqual({ selfLink: 'projects/p/networks/net-1' });
  });

  it('never changes the desired resource it was given', () => {
    const desired = structuredClone(network);
    materialize({ xr, key: 'network', desired, existingName: undefined, ready: true, facts });
    expect(desired).toEqual(network);
  });
});
