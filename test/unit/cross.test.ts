/** compareAcross and the gate reduction on hand-built skeletons and traces: no Python, no processes. */
import { describe, expect, it } from 'vitest';
import { compareAcross, type AcrossInput } from '../../src/compare/cross.js';
import type { Finding } from '../../src/compare/findings.js';
import { gatesFrom } from '../../src/compare/gating.js';
import type { ResourceSkeleton, Skeleton } from '../../src/skeleton/types.js';
import type { StepRecord, Trace } from '../../src/world/trace.js';
import { cloud, GCP_CONTAINER, goodSkeleton, K8S_OBJECTS } from '../helpers/fourth.js';

const across = (skeletons: Skeleton[], options: Partial<Omit<AcrossInput, 'skeletons'>> = {}): Finding[] =>
  compareAcross({ scenario: 'converge', pools: ['gpu'], ablated: false, ...options, skeletons });

const ids = (findings: Finding[]) => findings.map((finding) => finding.id).sort();

/** goodSkeleton with one resource changed (merged into the good one). */
function withResource(provider: string, key: string, change: Partial<ResourceSkeleton>): Skeleton {
  const base = goodSkeleton(provider);
  return goodSkeleton(provider, 'converge', { resources: { [key]: { ...base.resources[key]!, ...change } } });
}

const GPU_LABELS = ['modelplane.ai/gpu', 'modelplane.ai/pool'];

describe('compareAcross: consensus and outliers', () => {
  it('finds nothing among identical providers, nor with fewer than two usable skeletons', () => {
    expect(across([goodSkeleton('a'), goodSkeleton('b'), goodSkeleton('c')])).toEqual([]);
    expect(across([withResource('a', 'nodepool-gpu', { labels: [] })])).toEqual([]);
    const broken = { ...goodSkeleton('b'), error: 'the function crashed', resources: {} };
    expect(across([withResource('a', 'nodepool-gpu', { labels: [] }), broken])).toEqual([]);
  });

  it('takes a two-thirds convention of three voters and names the one outlier with every provider’s value', () => {
    const findings = across([goodSkeleton('a'), withResource('b', 'nodepool-gpu', { labels: ['modelplane.ai/pool'] }), goodSkeleton('c'), goodSkeleton('d')]);
    expect(findings).toEqual([
      {
        id: 'div:node-pool:labels:b',
        type: 'divergence',
        class: 'behavioral',
        provider: 'b',
        scenario: 'converge',
        subject: 'node-pool',
        facet: 'labels',
        message: 'node-pool labels differs from the convention of 3 of 4 providers (a, c, d)',
        values: { a: GPU_LABELS, b: ['modelplane.ai/pool'], c: GPU_LABELS, d: GPU_LABELS },
        consensus: GPU_LABELS,
        // b alone differs from all the others: the fix is in b, so no accept is offered. The count is the real one.
        hint: 'the convention is [modelplane.ai/gpu, modelplane.ai/pool]; b has [modelplane.ai/pool]. 3 of 4 providers (a, c, d) do it this way and only b differs: make b follow it.',
      },
    ]);
    // Two of three that agree are too few voters: a split, blaming nobody.
    expect(ids(across([goodSkeleton('a'), withResource('b', 'nodepool-gpu', { labels: ['modelplane.ai/pool'] }), goodSkeleton('c')]))).toEqual(['split:node-pool:labels']);
  });

  it('names each outlier of a convention, each with all values', () => {
    const findings = across([
      goodSkeleton('a'),
      withResource('b', 'nodepool-gpu', { labels: ['modelplane.ai/pool'] }),
      goodSkeleton('c'),
      withResource('d', 'nodepool-gpu', { labels: ['team'] }),
      goodSkeleton('e'),
      goodSkeleton('f'),
    ]);
    expect(ids(findings)).toEqual(['div:node-pool:labels:b', 'div:node-pool:labels:d']);
    const values = { a: GPU_LABELS, b: ['modelplane.ai/pool'], c: GPU_LABELS, d: ['team'], e: GPU_LABELS, f: GPU_LABELS };
    for (const finding of findings) {
      expect(finding.values).toEqual(values);
      expect(Object.keys(finding.values!)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      expect(finding.consensus).toEqual(GPU_LABELS);
    }
  });

  it('reports a facet without a convention once, as a split blaming nobody, in any input order', () => {
    const skeletons = [goodSkeleton('a'), goodSkeleton('b'), withResource('c', 'nodepool-gpu', { labels: [] }), withResource('d', 'nodepool-gpu', { labels: [] })];
    const findings = across(skeletons);
    expect(findings).toEqual([
      {
        id: 'split:node-pool:labels',
        type: 'split',
        class: 'behavioral',
        scenario: 'converge',
        subject: 'node-pool',
        facet: 'labels',
        message: 'node-pool labels has no convention: 2 groups of 2-2 providers',
        values: { a: GPU_LABELS, b: GPU_LABELS, c: [], d: [] },
        groups: [
          { value: GPU_LABELS, providers: ['a', 'b'] },
          { value: [], providers: ['c', 'd'] },
        ].sort((x, y) => (JSON.stringify(x.value) < JSON.stringify(y.value) ? -1 : 1)),
        hint: expect.stringContaining("drift accept 'split:node-pool:labels' --reason"),
      },
    ]);
    expect(findings[0]!.provider).toBeUndefined();
    expect(across([...skeletons].reverse())).toEqual(findings);
  });

  it('a split keeps its facet’s class', () => {
    const renamed = (provider: string) => goodSkeleton(provider, 'converge', { resources: { 'nodepool-gpu': undefined, 'node-pool-gpu': goodSkeleton(provider).resources['nodepool-gpu'] } });
    const findings = across([goodSkeleton('a'), renamed('b')]);
    expect(findings).toEqual([expect.objectContaining({ id: 'split:node-pool:key-pattern', type: 'split', class: 'stylistic' })]);
  });

  it('reports a missing contract role as a presence divergence, and compares none of its other facets', () => {
    const findings = across([goodSkeleton('a'), goodSkeleton('b', 'converge', { resources: { 'provider-config-helm': undefined } }), goodSkeleton('c'), goodSkeleton('d')]);
    const presence = findings.filter((finding) => finding.subject === 'provider-config-helm');
    expect(presence).toEqual([
      expect.objectContaining({ id: 'div:provider-config-helm:presence:b', class: 'behavioral', values: { a: 'composed', b: 'absent', c: 'composed', d: 'composed' }, consensus: 'composed' }),
    ]);
    // The other thing that changes: one reader of the kubeconfig fewer.
    expect(ids(findings)).toEqual(['div:kubeconfig:readers:b', 'div:provider-config-helm:presence:b']);
  });

  it('compares presence as composed / inline / absent: a system pool inline in the cluster is not absent, and takes no part in the other facets', () => {
    const inline = goodSkeleton('aks', 'converge', { resources: { 'nodepool-system': undefined }, inline: { 'system-pool': 'cluster' } });
    const absent = goodSkeleton('d', 'converge', { resources: { 'nodepool-system': undefined } });
    // Four of six compose it: a convention (two thirds), and each other value diverges on its own.
    const findings = across([goodSkeleton('a'), goodSkeleton('b'), goodSkeleton('c'), goodSkeleton('e'), inline, absent]);
    expect(ids(findings)).toEqual(['div:system-pool:presence:aks', 'div:system-pool:presence:d']);
    expect(findings[0]!.values).toEqual({ a: 'composed', aks: 'inline', b: 'composed', c: 'composed', d: 'absent', e: 'composed' });
    // A role composed by a resource of its own is composed, whatever else declares it.
    expect(across([goodSkeleton('a', 'converge', { inline: { 'system-pool': 'cluster' } }), goodSkeleton('b'), goodSkeleton('c')])).toEqual([]);
  });

  it('classes a different key pattern for the same role as stylistic', () => {
    const renamed = goodSkeleton('b', 'converge', { resources: { 'nodepool-gpu': undefined, 'node-pool-gpu': goodSkeleton('b').resources['nodepool-gpu'] } });
    const findings = across([goodSkeleton('a'), renamed, goodSkeleton('c'), goodSkeleton('d')]);
    expect(findings).toEqual([
      expect.objectContaining({
        id: 'div:node-pool:key-pattern:b',
        class: 'stylistic',
        values: { a: ['nodepool-{pool}'], b: ['node-pool-{pool}'], c: ['nodepool-{pool}'], d: ['nodepool-{pool}'] },
        consensus: ['nodepool-{pool}'],
      }),
    ]);
  });

  it('compares timing relative to the cluster, and the cluster itself in absolute steps', () => {
    const late = goodSkeleton('b');
    for (const resource of Object.values(late.resources)) {
      resource.appears += 1;
      if (resource.ready !== null) resource.ready += 1;
    }
    // Held back one step throughout: only the cluster's own timing shows it, no other role.
    expect(ids(across([goodSkeleton('a'), late, goodSkeleton('c'), goodSkeleton('d')]))).toEqual(['div:cluster:appears:b', 'div:cluster:ready:b']);
    // A node pool that becomes ready a step later than the cluster warrants does diverge.
    const slowPool = withResource('b', 'nodepool-gpu', { ready: 3 });
    expect(ids(across([goodSkeleton('a'), slowPool, goodSkeleton('c'), goodSkeleton('d')]))).toEqual(['div:node-pool:ready:b']);
  });

  it('compares in-cluster manifests and APIs, but not cloud APIs', () => {
    const otherCloud = withResource('b', 'cluster', { apiVersion: 'eks.aws.m.upbound.io/v1beta1', kind: 'Cluster' });
    expect(across([goodSkeleton('a'), otherCloud, goodSkeleton('c')])).toEqual([]);
    const otherManifest = withResource('b', 'storage-class-rwx', { manifest: 'StorageClass/other' });
    expect(ids(across([goodSkeleton('a'), otherManifest, goodSkeleton('c'), goodSkeleton('d')]))).toEqual(['div:cache-storage-class:manifest:b']);
    const otherApi = withResource('b', 'storage-class-rwx', { apiVersion: 'kubernetes.crossplane.io/v1alpha2' });
    expect(ids(across([goodSkeleton('a'), otherApi, goodSkeleton('c'), goodSkeleton('d')]))).toEqual(['div:cache-storage-class:api:b']);
  });

  it('compares perturbation outcomes by role, not by key', () => {
    const outcome = (provider: string, key: string): Skeleton =>
      goodSkeleton(provider, 'cluster-regresses', {
        resources: key === 'nodepool-gpu' ? {} : { 'nodepool-gpu': undefined, [key]: goodSkeleton(provider).resources['nodepool-gpu'] },
        then: [{ do: 'unready', role: 'cluster', dropped: [], unmarked: ['cluster', key], statusKept: true, xrReady: false, events: [] }],
      });
    const findings = compareAcross({ scenario: 'cluster-regresses', skeletons: [outcome('a', 'nodepool-gpu'), outcome('b', 'node-pool-gpu'), outcome('c', 'nodepool-gpu'), outcome('d', 'nodepool-gpu')], pools: ['gpu'], ablated: false });
    // Only the key spelling differs; what the perturbation did to each role is the same.
    expect(ids(findings)).toEqual(['div:node-pool:key-pattern:b']);
  });
});

describe('compareAcross: cloud-only roles', () => {
  it('never compares cloud-only roles by name: neither their presence nor their facets', () => {
    const gcp = goodSkeleton('gcp', 'converge', {
      resources: { 'service-account': cloud('service-account', 'ServiceAccount', { labels: ['a'] }), 'iam-binding': cloud('iam-binding', 'ProjectIAMMember', { ready: null, readyBy: null }) },
    });
    const aws = goodSkeleton('aws', 'converge', { resources: { 'node-role': cloud('node-role', 'Role'), 'service-account': cloud('service-account', 'ServiceAccount', { labels: ['b'], appears: 3 }) } });
    const plain = goodSkeleton('nebius');
    expect(across([gcp, aws, plain])).toEqual([]);
  });

  it('compares an adapter-mapped key under its contract role', () => {
    // EKS composes subnet-a and subnet-b where the others compose one subnet: same role, other keys.
    const eks = goodSkeleton('eks', 'converge', { resources: { subnet: undefined, 'subnet-a': cloud('subnet', 'Subnet'), 'subnet-b': cloud('subnet', 'Subnet', { labels: ['zone'] }) } });
    const findings = across([goodSkeleton('gke'), eks, goodSkeleton('nebius'), goodSkeleton('vultr')]);
    // Two subnets where the others have one is behaviour; named by the same stem, the keys agree.
    expect(ids(findings)).toEqual(['div:subnet:instances:eks', 'div:subnet:labels:eks']);
    expect(findings.find((f) => f.facet === 'instances')!.values).toEqual({ eks: 2, gke: 1, nebius: 1, vultr: 1 });
  });

  it('names several resources of a role by their shared stem, and keeps keys that share none', () => {
    const subnets = (provider: string, keys: string[]) =>
      goodSkeleton(provider, 'converge', { resources: { subnet: undefined, ...Object.fromEntries(keys.map((key) => [key, cloud('subnet', 'Subnet')])) } });
    const keyPatterns = (findings: ReturnType<typeof across>) => findings.filter((f) => f.facet === 'key-pattern').map((f) => [f.id, f.values]);
    // Another stem for the same two subnets is a naming of its own.
    expect(keyPatterns(across([subnets('a', ['subnet-a', 'subnet-b']), subnets('b', ['subnet-a', 'subnet-b']), subnets('c', ['sn-a', 'sn-b']), subnets('d', ['subnet-a', 'subnet-b'])]))).toEqual([
      ['div:subnet:key-pattern:c', { a: ['subnet'], b: ['subnet'], c: ['sn'], d: ['subnet'] }],
    ]);
    // Keys with no stem in common (no separator after what they share) are compared whole.
    expect(keyPatterns(across([subnets('a', ['subnet']), subnets('b', ['subnet']), subnets('c', ['subnet', 'subnetb']), subnets('d', ['subnet'])]))).toEqual([
      ['div:subnet:key-pattern:c', { a: ['subnet'], b: ['subnet'], c: ['subnet', 'subnetb'], d: ['subnet'] }],
    ]);
  });
});

describe('compareAcross: gates', () => {
  const gated = (provider: string, key: string, gatedOn: string[], extra: Record<string, ResourceSkeleton> = {}) => {
    const base = goodSkeleton(provider);
    return goodSkeleton(provider, 'converge', { resources: { ...extra, [key]: { ...base.resources[key]!, gatedOn } } });
  };

  it('compares gates only where the gating analysis ran (ablated)', () => {
    const skeletons = [gated('a', 'nodepool-gpu', ['cluster.exists']), gated('b', 'nodepool-gpu', ['cluster.ready']), gated('c', 'nodepool-gpu', ['cluster.exists']), gated('d', 'nodepool-gpu', ['cluster.exists'])];
    expect(across(skeletons, { ablated: false })).toEqual([]);
    const findings = across(skeletons, { ablated: true });
    expect(findings).toEqual([
      expect.objectContaining({
        id: 'div:node-pool:gated-on:b',
        class: 'behavioral',
        values: { a: ['cluster.exists'], b: ['cluster.ready'], c: ['cluster.exists'], d: ['cluster.exists'] },
        consensus: ['cluster.exists'],
      }),
    ]);
  });

  it('makes cloud facts compare equal across clouds', () => {
    // GCP needs the network's external name, AWS the VPC id, Nebius a network fact of its own.
    const skeletons = [
      gated('gcp', 'storage-class-rwx', ['network.external-name']),
      gated('aws', 'storage-class-rwx', ['network.vpc-id']),
      gated('nebius', 'storage-class-rwx', ['filesystem.id'], { filesystem: cloud('filesystem', 'Filesystem') }),
    ];
    expect(across(skeletons, { ablated: true })).toEqual([]);
  });

  it('names gates on a contract role by role, whatever the key, and gates on cloud-only resources as cloud-resource', () => {
    const eksCluster = { ...goodSkeleton('eks').resources['cluster']!, role: 'cluster' };
    const eks = goodSkeleton('eks', 'converge', {
      resources: {
        cluster: undefined,
        'eks-cluster': eksCluster,
        'cluster-auth': cloud('cluster-auth', 'ClusterAuth'),
        'nodepool-gpu': { ...goodSkeleton('eks').resources['nodepool-gpu']!, gatedOn: ['cluster-auth.ready', 'eks-cluster.exists'] },
      },
    });
    const gke = goodSkeleton('gke', 'converge', {
      resources: {
        'iam-binding': cloud('iam-binding', 'ProjectIAMMember'),
        'nodepool-gpu': { ...goodSkeleton('gke').resources['nodepool-gpu']!, gatedOn: ['cluster.exists', 'iam-binding.ready'] },
      },
    });
    expect(across([eks, gke], { ablated: true }).filter((finding) => finding.facet === 'gated-on')).toEqual([]);
    // …but a gate on the cluster's Ready condition is not a gate on its existence.
    const ready = goodSkeleton('nebius', 'converge', { resources: { 'nodepool-gpu': { ...goodSkeleton('nebius').resources['nodepool-gpu']!, gatedOn: ['cluster.ready', 'vpc.ready'] } } });
    const vultr = goodSkeleton('vultr', 'converge', { resources: { 'nodepool-gpu': { ...goodSkeleton('vultr').resources['nodepool-gpu']!, gatedOn: ['cluster.exists', 'vpc.ready'] } } });
    const findings = across([eks, gke, ready, vultr], { ablated: true }).filter((finding) => finding.facet === 'gated-on');
    expect(findings).toEqual([
      expect.objectContaining({
        id: 'div:node-pool:gated-on:nebius',
        values: { eks: ['cloud-resource.ready', 'cluster.exists'], gke: ['cloud-resource.ready', 'cluster.exists'], nebius: ['cloud-resource.ready', 'cluster.ready'], vultr: ['cloud-resource.ready', 'cluster.exists'] },
      }),
    ]);
  });

  it('keeps credentials as a gate of its own', () => {
    const findings = across([gated('a', 'network', []), gated('b', 'network', ['credentials']), gated('c', 'network', []), gated('d', 'network', [])], { ablated: true });
    expect(findings).toEqual([expect.objectContaining({ id: 'div:network:gated-on:b', values: { a: [], b: ['credentials'], c: [], d: [] } })]);
  });

  it('compares gates from gatesFrom, where `.exists` is dropped beside `.ready`, equal to a plain `.ready` gate', () => {
    // Provider a: withholding the cluster, or only its Ready condition, both keep the pool away.
    const baseline = trace([{ cluster: true }, { cluster: true, 'nodepool-gpu': true }]);
    const gates = gatesFrom(baseline, [
      { gate: 'cluster.exists', trace: trace([{ cluster: true }, { cluster: true }]) },
      { gate: 'cluster.ready', trace: trace([{ cluster: true }, { cluster: true }]) },
      { gate: 'network.exists', trace: trace([{ cluster: true }, { cluster: true, 'nodepool-gpu': true }]) },
    ]);
    expect(gates).toEqual({ 'nodepool-gpu': ['cluster.ready'] });
    const a = gated('a', 'nodepool-gpu', gates['nodepool-gpu']!);
    const b = gated('b', 'nodepool-gpu', ['cluster.ready']);
    expect(across([a, b], { ablated: true })).toEqual([]);
  });
});

describe('gatesFrom', () => {
  it('drops `<key>.exists` beside any other gate on the same key (ready or a fact), and only on that key', () => {
    const baseline = trace([{ network: true, cluster: true, 'storage-class-rwx': true, 'nodepool-gpu': true }]);
    const hides = (keys: string[]) => trace([{ network: true, cluster: true, 'storage-class-rwx': true, 'nodepool-gpu': true, ...Object.fromEntries(keys.map((key) => [key, false])) }]);
    const gates = gatesFrom(baseline, [
      { gate: 'network.exists', trace: hides(['storage-class-rwx']) },
      { gate: 'network.external-name', trace: hides(['storage-class-rwx']) },
      { gate: 'cluster.exists', trace: hides(['nodepool-gpu']) },
      { gate: 'cluster-auth.ready', trace: hides(['nodepool-gpu']) },
    ]);
    expect(gates).toEqual({ 'nodepool-gpu': ['cluster-auth.ready', 'cluster.exists'], 'storage-class-rwx': ['network.external-name'] });
  });

  it('ignores ablation runs that ended in an error', () => {
    const baseline = trace([{ cluster: true, 'nodepool-gpu': true }]);
    const failed = { ...trace([{ cluster: true }]), error: 'the function crashed' };
    expect(gatesFrom(baseline, [{ gate: 'cluster.ready', trace: failed }])).toEqual({});
  });
});

describe('bugs found by these tests, now fixed', () => {
  // src/compare/cross.ts `first` sorts numbers with Array#sort() and no comparator, i.e. as strings:
  // [10, 2].sort() is [10, 2], so a role whose keys appear at relative steps 2 and 10 reports 10.
  it('takes the earliest step of a multi-key role as a number, not as text', () => {
    const twoPools = (provider: string, second: number): Skeleton =>
      goodSkeleton(provider, 'two-pools', {
        resources: {
          'nodepool-gpu': undefined,
          'nodepool-inference': cloud('node-pool', 'NodePool', { appears: 2, ready: 3 }, GCP_CONTAINER),
          'nodepool-training': cloud('node-pool', 'NodePool', { appears: second, ready: second + 1 }, GCP_CONTAINER),
        },
      });
    // Both providers compose their first pool at step 2; only the later pool differs.
    const findings = compareAcross({ scenario: 'two-pools', skeletons: [twoPools('a', 10), twoPools('b', 3)], pools: ['inference', 'training'], ablated: false });
    expect(ids(findings)).toEqual([]);
  });
});

// ---- trace builder for gatesFrom -------------------------------------------------------------------

/** A trace of converge steps; each step lists which keys are desired (true). */
function trace(steps: Array<Record<string, boolean>>): Trace {
  const record = (index: number, keys: Record<string, boolean>): StepRecord => ({
    index,
    phase: 'converge',
    calls: 1,
    requirements: {},
    satisfied: [],
    status: {},
    resources: Object.fromEntries(
      Object.entries(keys)
        .filter(([, present]) => present)
        .map(([key]) => [key, { resource: { apiVersion: K8S_OBJECTS, kind: 'Object' }, ready: 'True' as const }]),
    ),
    results: [],
    dropped: [],
    xrReady: false,
    xr: { apiVersion: 'infrastructure.modelplane.ai/v1alpha1', kind: 'GKECluster', metadata: { name: 'demo', namespace: 'ml-team' } },
    names: {},
  });
  return {
    provider: 'gke',
    scenario: 'converge',
    xr: { name: 'demo', namespace: 'ml-team', uid: 'uid' },
    steps: steps.map((keys, index) => record(index, keys)),
    converged: null,
    perturbations: [],
  };
}
