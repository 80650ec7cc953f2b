/** compareGolden: a committed golden against a freshly rendered skeleton, read by the one golden parser; no processes involved. */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compareGolden, diffSkeletons } from '../../src/compare/golden.js';
import { parseGolden } from '../../src/goldens/format.js';
import { toCanonicalYaml } from '../../src/skeleton/canonical.js';
import { SKELETON_VERSION, type ResourceSkeleton, type Skeleton } from '../../src/skeleton/types.js';

const storageClass: ResourceSkeleton = {
  role: 'cache-storage-class',
  plane: 'in-cluster',
  apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
  kind: 'Object',
  appears: 1,
  ready: 1,
  readyBy: 'composed',
  providerConfigRef: { kind: 'ProviderConfig', name: '{xr}' },
  managementPolicies: ['Observe', 'Create', 'Update', 'LateInitialize'],
  readinessPolicy: 'SuccessfulCreate',
};

function cloud(kind: string, appears = 0, ready = 1): ResourceSkeleton {
  return {
    role: kind.toLowerCase(),
    plane: 'cloud',
    apiVersion: 'compute.gcp.m.upbound.io/v1beta1',
    kind,
    appears,
    ready,
    readyBy: 'observed',
    providerConfigRef: { kind: 'ClusterProviderConfig', name: 'default' },
  };
}

function base(): Skeleton {
  return {
    skeleton: SKELETON_VERSION,
    provider: 'gke',
    scenario: 'converge',
    converged: { step: 2, xrReady: true },
    requirements: {
      'gcp-provider-config': { apiVersion: 'gcp.m.upbound.io/v1beta1', kind: 'ClusterProviderConfig', select: { name: 'default' }, satisfied: true },
    },
    status: {
      appears: 0,
      secrets: [{ type: 'Kubeconfig', name: '{xr}-kubeconfig', key: 'kubeconfig', appears: 0 }],
      cache: { storageClassName: 'modelplane-rwx', appears: 1 },
    },
    resources: {
      cluster: cloud('Cluster'),
      'iam-binding': cloud('ProjectIAMMember', 1, 2),
      network: cloud('Network'),
      'storage-class-rwx': storageClass,
    },
    events: [],
    then: [],
  };
}

const FILE = 'goldens/gke/converge.yaml';
const compare = (golden: string | undefined, skeleton: Skeleton = base()) =>
  compareGolden({ provider: 'gke', scenario: 'converge', golden, skeleton, parse: (text) => parseGolden(text, FILE) });
const HINT = 'drift update --provider gke --scenario converge';

describe('compareGolden', () => {
  it('identical golden: no findings', () => {
    expect(compare(toCanonicalYaml(base()))).toEqual([]);
  });

  it('missing golden: one golden-missing finding that says how to create it', () => {
    const findings = compare(undefined);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      id: 'golden-missing:gke/converge',
      type: 'golden',
      class: 'behavioral',
      provider: 'gke',
      scenario: 'converge',
      message: 'no golden for gke/converge',
    });
    expect(findings[0]!.hint).toContain(HINT);
  });

  it.each([
    ['broken YAML', 'skeleton: 1\nresources: {cluster: [\n', '3:1', 'not valid YAML'],
    ['a list', '- skeleton: 1\n', '1:1', 'the document must be object'],
    ['a scalar', 'just text\n', '1:1', 'the document must be object'],
    ['a map without a version', 'provider: gke\nscenario: converge\n', '1:1', 'missing the required key "skeleton"'],
    ['a version that is not a number', toCanonicalYaml(base()).replace(/^skeleton: \d+/, 'skeleton: "1"'), '1:11', '"skeleton" must be integer'],
  ])('unreadable golden (%s): golden-unreadable, not a drift skeleton, at file:line:col', (_what, text, where, problem) => {
    const findings = compare(text);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ id: 'golden-unreadable:gke/converge', type: 'golden', class: 'behavioral' });
    expect(findings[0]!.message).toMatch(new RegExp(`^the golden of gke/converge is not a drift skeleton: ${FILE}:${where}: `));
    expect(findings[0]!.message).toContain(problem);
    expect(findings[0]!.hint).toContain(HINT);
  });

  it('unreadable golden (broken YAML): says where it breaks, line and column', () => {
    const findings = compare('skeleton: 1\nprovider: gke: eks\nscenario: converge\n');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ id: 'golden-unreadable:gke/converge', type: 'golden', class: 'behavioral' });
    expect(findings[0]!.message).toMatch(new RegExp(`^the golden of gke/converge is not a drift skeleton: ${FILE}:2:\\d+: not valid YAML: `));
    expect(findings[0]!.hint).toContain(HINT);
  });

  it('unreadable golden (an alias bomb): refused, not expanded', () => {
    const bomb = ['skeleton: 1', 'a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');
    const findings = compare(`${bomb}\n`);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toMatch(new RegExp(`^the golden of gke/converge is not a drift skeleton: ${FILE}:\\d+:\\d+: .*alias`, 'i'));
  });

  it('unreadable golden (broken YAML): says where it breaks, line and column', () => {
    const findings = compare('skeleton: 1\nprovider: gke: eks\nscenario: converge\n');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ id: 'golden-unreadable:gke/converge', type: 'golden', class: 'behavioral' });
    expect(findings[0]!.message).toMatch(new RegExp(`^the golden of gke/converge is not a drift skeleton: ${FILE}:2:\\d+: not valid YAML: `));
    expect(findings[0]!.hint).toContain(HINT);
  });

  it('unreadable golden (an alias bomb): refused, not expanded', () => {
    const bomb = ['skeleton: 1', 'a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');
    const findings = compare(`${bomb}\n`);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toMatch(new RegExp(`^the golden of gke/converge is not a drift skeleton: ${FILE}:\\d+:\\d+: .*alias`, 'i'));
  });

  it('an empty golden is unreadable too', () => {
    expect(compare('')).toEqual([expect.objectContaining({ id: 'golden-unreadable:gke/converge', message: expect.stringContaining('is not a drift skeleton: ') })]);
  });

  it('a golden that breaks the schema deep inside names the line and column of the bad value', () => {
    const text = toCanonicalYaml(base()).replace('    readyBy: observed\n', '    readyBy: eventually\n');
    const findings = compare(text);
    const line = text.split('\n').indexOf('    readyBy: eventually') + 1;
    expect(findings.map((f) => f.id)).toEqual(['golden-unreadable:gke/converge']);
    expect(findings[0]!.message).toContain(`${FILE}:${line}:14: "resources.cluster.readyBy" must be one of "composed", "observed", null`);
  });

  it('golden of another skeleton version: golden-unreadable naming both versions', () => {
    const other = { ...base(), skeleton: SKELETON_VERSION + 1 };
    const findings = compare(toCanonicalYaml(other));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      id: 'golden-unreadable:gke/converge',
      message: `the golden of gke/converge is skeleton format ${SKELETON_VERSION + 1}, drift writes ${SKELETON_VERSION}`,
    });
    expect(findings[0]!.hint).toContain(HINT);
  });

  it('same content in another layout: one stylistic golden-format finding', () => {
    const findings = compare(stringify(base()));
    expect(findings).toEqual([expect.objectContaining({ id: 'golden-format:gke/converge', class: 'stylistic' })]);
  });

  it('changed sections: one finding per section, resources keyed by resource key, with a readable diff', () => {
    const rendered = base();
    rendered.resources['storage-class-rwx'] = { ...storageClass, managementPolicies: ['Observe', 'Create', 'Update', 'Delete', 'LateInitialize'] };
    delete rendered.resources['iam-binding'];
    rendered.resources['node-pool-gpu'] = cloud('NodePool', 1, 2);
    delete rendered.status.cache;
    const findings = compare(toCanonicalYaml(base()), rendered);

    expect(findings.map((f) => f.id)).toEqual([
      'golden:gke/converge:resources.iam-binding',
      'golden:gke/converge:resources.node-pool-gpu',
      'golden:gke/converge:resources.storage-class-rwx',
      'golden:gke/converge:status',
    ]);
    expect(findings.map((f) => f.message)).toEqual([
      'resources.iam-binding removed',
      'resources.node-pool-gpu added',
      'resources.storage-class-rwx changed',
      'status changed',
    ]);
    for (const finding of findings) {
      expect(finding).toMatchObject({ type: 'golden', class: 'behavioral', provider: 'gke', scenario: 'converge' });
      expect(finding.subject).toBe(finding.id.replace('golden:gke/converge:', ''));
      expect(finding.hint).toContain(HINT);
      expect(finding.diff).toMatch(/^- golden\n\+ rendered\n/);
      expect(finding.diff).not.toContain('\u001b['); // no color codes: reports decide on color
    }
    const [removed, added, changed, status] = findings.map((f) => f.diff!.split('\n'));
    expect(changed).toContain('+   - Delete');
    expect(changed).toContain('    - LateInitialize'); // context around the change
    expect(changed!.filter((line) => /^[-+] /.test(line) && !/^[-+] (golden|rendered)$/.test(line))).toEqual(['+   - Delete']);
    expect(removed).toContain('- kind: ProjectIAMMember');
    expect(removed!.some((line) => line.startsWith('+ ') && line !== '+ rendered')).toBe(false);
    expect(added).toContain('+ kind: NodePool');
    expect(status).toEqual(expect.arrayContaining(['- cache:', '-   storageClassName: modelplane-rwx', '-   appears: 1']));
  });

  it('changed header fields are sections of their own', () => {
    const rendered = { ...base(), converged: null, events: [{ step: 0, severity: 'Normal', message: 'Waiting for {cloud} ClusterProviderConfig default' }] };
    const findings = compare(toCanonicalYaml(base()), rendered);
    expect(findings.map((f) => f.subject)).toEqual(['converged', 'events']);
    expect(findings[0]!.diff).toContain('+ null');
    expect(findings[1]!.diff).toContain('+   message: Waiting for {cloud} ClusterProviderConfig default');
  });
});

describe('diffSkeletons', () => {
  it('ignores key order: equal data is no change', () => {
    const reordered = Object.fromEntries(Object.entries(base()).reverse());
    expect(diffSkeletons(base() as never, reordered)).toEqual([]);
  });
});
