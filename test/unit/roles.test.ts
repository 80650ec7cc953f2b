/**
 * Role inference and planes on synthetic resources shaped like five real clouds' Crossplane
 * providers (GKE, EKS, AKS, Nebius, Vultr): what each resource is and does decides its role, not its key.
 */
import { describe, expect, it } from 'vitest';
import { checkRules } from '../../src/compare/rules/index.js';
import { keyPattern } from '../../src/roles/catalog.js';
import { DEFAULT_CREDENTIALS, planesOf } from '../../src/roles/plane.js';
import { presenceOf } from '../../src/skeleton/presence.js';
import { resolveRoles, type RoleContext } from '../../src/roles/resolve.js';
import { skeletonize } from '../../src/skeleton/skeletonize.js';
import type { JsonObject } from '../../src/util/objects.js';
import type { Trace } from '../../src/world/trace.js';
import { scenarioOf } from '../helpers/fourth.js';

const CREDENTIALS = { kind: 'ClusterProviderConfig', name: 'default' };
const context = (overrides: Partial<RoleContext> = {}): RoleContext => ({
  adapter: { roles: {}, inline: {} },
  pools: ['gpu'],
  credentials: CREDENTIALS,
  ...overrides,
});

/** A managed resource of a cloud API on the XR's credentials. */
function managed(apiVersion: string, kind: string, forProvider: JsonObject = {}, spec: JsonObject = {}, metadata: JsonObject = {}): JsonObject {
  return { apiVersion, kind, metadata, spec: { forProvider, providerConfigRef: { ...CREDENTIALS }, ...spec } };
}

const KUBECONFIG_READ = { source: 'Secret', secretRef: { namespace: 'ml-team', name: 'demo-kubeconfig', key: 'kubeconfig' } };
function providerConfig(apiVersion: string, name = 'demo'): JsonObject {
  return { apiVersion, kind: 'ProviderConfig', metadata: { name }, spec: { credentials: KUBECONFIG_READ } };
}
const K8S_PC = providerConfig('kubernetes.m.crossplane.io/v1alpha1');
const HELM_PC = providerConfig('helm.m.crossplane.io/v1beta1');

function storageClassObject(providerConfigName = 'demo', policies = ['Observe', 'Create', 'Update', 'LateInitialize']): JsonObject {
  return {
    apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
    kind: 'Object',
    spec: {
      forProvider: { manifest: { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'modelplane-rwx' } } },
      providerConfigRef: { kind: 'ProviderConfig', name: providerConfigName },
      managementPolicies: policies,
    },
  };
}

const writesKubeconfig = { writeConnectionSecretToRef: { name: 'demo-kubeconfig' } };
const poolLabels = (pool: string) => ({ 'modelplane.ai/pool': pool });

// One user pool `gpu` and the system pool, as each cloud's provider spells them.
const GKE = {
  cluster: managed('container.gcp.m.upbound.io/v1beta1', 'Cluster', {}, writesKubeconfig),
  'np-gpu': managed('container.gcp.m.upbound.io/v1beta1', 'NodePool', { nodeConfig: { labels: poolLabels('gpu') } }),
  'np-system': managed('container.gcp.m.upbound.io/v1beta1', 'NodePool', { nodeConfig: { labels: poolLabels('system') } }),
  network: managed('compute.gcp.m.upbound.io/v1beta1', 'Network'),
  subnet: managed('compute.gcp.m.upbound.io/v1beta1', 'Subnetwork'),
  'service-account': managed('cloudplatform.gcp.m.upbound.io/v1beta1', 'ServiceAccount'),
};
const EKS = {
  'eks-cluster': managed('eks.aws.m.upbound.io/v1beta1', 'Cluster'),
  'cluster-auth': managed('eks.aws.m.upbound.io/v1beta1', 'ClusterAuth', {}, writesKubeconfig),
  'nodegroup-gpu': managed('eks.aws.m.upbound.io/v1beta1', 'NodeGroup', { labels: poolLabels('gpu') }),
  'nodegroup-system': managed('eks.aws.m.upbound.io/v1beta1', 'NodeGroup', { labels: poolLabels('system') }),
  vpc: managed('ec2.aws.m.upbound.io/v1beta1', 'VPC'),
  'subnet-a': managed('ec2.aws.m.upbound.io/v1beta1', 'Subnet'),
  // A per-pool IAM role: the pool's name in its key does not make it a pool.
  'iam-role-gpu': managed('iam.aws.m.upbound.io/v1beta1', 'Role'),
};
const AKS = {
  aks: managed('containerservice.azure.m.upbound.io/v1beta1', 'KubernetesCluster', { defaultNodePool: { name: 'system', vmSize: 'Standard_D4s_v5' } }, writesKubeconfig),
  'node-pool-gpu': managed('containerservice.azure.m.upbound.io/v1beta1', 'KubernetesClusterNodePool', { nodeLabels: poolLabels('gpu') }),
  vnet: managed('network.azure.m.upbound.io/v1beta1', 'VirtualNetwork'),
  'resource-group': managed('azure.m.upbound.io/v1beta1', 'ResourceGroup'),
};
const NEBIUS = {
  cluster: managed('mk8s.nebius.m.upbound.io/v1alpha1', 'Cluster', {}, writesKubeconfig),
  // No label: the pool's name in the Nebius name says which pool it serves.
  'group-gpu': managed('mk8s.nebius.m.upbound.io/v1alpha1', 'NodeGroup', { name: 'demo-gpu' }),
  'group-sys': managed('mk8s.nebius.m.upbound.io/v1alpha1', 'NodeGroup', { name: 'demo-system' }),
};
const VULTR = {
  vke: managed('kubernetes.vultr.upbound.io/v1alpha1', 'Kubernetes', { nodePools: [{ label: 'system', nodeQuantity: 1 }] }, writesKubeconfig),
  'pool-gpu': managed('kubernetes.vultr.upbound.io/v1alpha1', 'NodePools', { nodeLabels: [{ key: 'modelplane.ai/pool', value: 'gpu' }] }),
  'kubeconfig-copy': { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'demo-extra' }, stringData: { note: 'composed directly' } },
};
const WORKLOAD = { 'provider-config-kubernetes': K8S_PC, 'provider-config-helm': HELM_PC, 'storage-class-rwx': storageClassObject() };

const rolesOf = (resources: Record<string, JsonObject>, overrides: Partial<RoleContext> = {}) => resolveRoles(resources, context(overrides)).roles;

describe('resolveRoles: the kind', () => {
  it('finds the node pool of every cloud, whatever the key: only the key pattern differs', () => {
    const keys = { gke: 'np-gpu', eks: 'nodegroup-gpu', aks: 'node-pool-gpu', nebius: 'group-gpu', vultr: 'pool-gpu' };
    const clouds = { gke: GKE, eks: EKS, aks: AKS, nebius: NEBIUS, vultr: VULTR };
    for (const [cloud, resources] of Object.entries(clouds)) {
      expect(rolesOf({ ...resources, ...WORKLOAD })[keys[cloud as keyof typeof keys]], cloud).toBe('node-pool');
    }
    expect(Object.values(keys).map((key) => keyPattern(key, ['gpu']))).toEqual(['np-{pool}', 'nodegroup-{pool}', 'node-pool-{pool}', 'group-{pool}', 'pool-{pool}']);
  });

  it('tells the injected system pool from a requested pool by the pool label, else by a pool name in its key or name', () => {
    expect(rolesOf(GKE)['np-system']).toBe('system-pool');
    expect(rolesOf(EKS)['nodegroup-system']).toBe('system-pool');
    expect(rolesOf(NEBIUS)).toMatchObject({ 'group-gpu': 'node-pool', 'group-sys': 'system-pool' });
    // Two requested pools: each is a node pool; a pool label naming no requested pool is the system pool.
    const two = { a: managed('x.gcp/v1', 'NodePool', { labels: poolLabels('inference') }), b: managed('x.gcp/v1', 'NodePool', { labels: poolLabels('training') }), c: managed('x.gcp/v1', 'NodePool', { labels: poolLabels('ops') }) };
    expect(rolesOf(two, { pools: ['inference', 'training'] })).toEqual({ a: 'node-pool', b: 'node-pool', c: 'system-pool' });
  });

  it('knows the kinds of other clouds too, and only for cloud resources', () => {
    const kinds = { ManagedCluster: 'cluster', KubernetesNodePool: 'system-pool', ManagedClustersAgentPool: 'system-pool', VPC: 'network', Subnetwork: 'subnet' };
    for (const [kind, role] of Object.entries(kinds)) expect(rolesOf({ r: managed('x.cloud.example/v1', kind) }).r, kind).toBe(role);
    expect(rolesOf({ r: { apiVersion: 'x.cloud.example/v1', kind: 'NodePool', spec: {} } }).r).toBe('r'); // not managed: no plane, no role
  });

  it('finds clusters, networks and subnets by kind', () => {
    expect(rolesOf(GKE)).toMatchObject({ cluster: 'cluster', network: 'network', subnet: 'subnet' });
    expect(rolesOf(EKS)).toMatchObject({ 'eks-cluster': 'cluster', vpc: 'network', 'subnet-a': 'subnet' });
    expect(rolesOf(AKS)).toMatchObject({ aks: 'cluster', vnet: 'network' });
    expect(rolesOf(VULTR).vke).toBe('cluster');
  });

  it('leaves what no evidence decides cloud-only: its role is its key', () => {
    expect(rolesOf(EKS)).toMatchObject({ 'cluster-auth': 'cluster-auth', 'iam-role-gpu': 'iam-role-gpu' });
    expect(rolesOf(GKE)['service-account']).toBe('service-account');
    expect(rolesOf(AKS)['resource-group']).toBe('resource-group');
    // A cluster-like kind outside the cloud plane (a core object) plays nothing.
    expect(rolesOf({ thing: { apiVersion: 'v1', kind: 'Cluster', metadata: { name: 'x' } } }).thing).toBe('thing');
  });
});

describe('resolveRoles: the wiring', () => {
  it("names the workload cluster's ProviderConfigs by their provider's API group", () => {
    expect(rolesOf({ a: K8S_PC, b: HELM_PC })).toEqual({ a: 'provider-config-kubernetes', b: 'provider-config-helm' });
  });

  it('names a ProviderConfig of an unknown group by what is applied through it', () => {
    // A providerConfigRef names no group: the resource's own provider serves it, so the groups match.
    const release = { apiVersion: 'charts.example.org/v1', kind: 'Release', spec: { forProvider: { chart: { name: 'x' } }, providerConfigRef: { kind: 'ProviderConfig', name: 'charts' } } };
    // It reads the kubeconfig the Kubernetes ProviderConfig reads: it is for the workload cluster.
    const roles = rolesOf({ pc: providerConfig('charts.example.org/v1', 'charts'), release, k8s: K8S_PC });
    expect(roles.pc).toBe('provider-config-helm');
    expect(roles.release).toBe('release');
    // The same ref from another provider's resource is not applied through it.
    const other = resolveRoles({ pc: providerConfig('charts.example.org/v1', 'charts'), release: { ...release, apiVersion: 'other.example.org/v1' }, k8s: K8S_PC }, context());
    expect(other.roles.pc).toBe('pc');
    expect(other.planes.release).toBe('cloud');
  });

  it('finds the cache StorageClass as a StorageClass applied through a composed ProviderConfig', () => {
    expect(rolesOf({ ...WORKLOAD, sc: storageClassObject() }).sc).toBe('cache-storage-class');
    // Through a ProviderConfig the function does not compose, it is not in the workload cluster.
    const elsewhere = resolveRoles({ ...WORKLOAD, sc: storageClassObject('someone-else') }, context());
    expect(elsewhere.roles.sc).toBe('sc');
    expect(elsewhere.planes.sc).toBe('cloud');
  });

  it('takes the kubeconfig writer as the cluster only when no resource is a cluster by kind', () => {
    const managedCluster = managed('example.cloud/v1', 'ManagedK8s', {}, writesKubeconfig);
    expect(rolesOf({ mk: managedCluster, ...WORKLOAD }).mk).toBe('cluster');
    // EKS: the Cluster is the cluster; ClusterAuth, which writes the kubeconfig, stays cloud-only.
    expect(rolesOf({ ...EKS, ...WORKLOAD })).toMatchObject({ 'eks-cluster': 'cluster', 'cluster-auth': 'cluster-auth' });
  });

  it("lets the adapter's roles override every inference", () => {
    const roles = rolesOf({ ...GKE, ...WORKLOAD }, { adapter: { roles: { 'np-{pool}': 'gpu-pool', subnet: 'private-subnet' }, inline: {} } });
    expect(roles).toMatchObject({ 'np-gpu': 'gpu-pool', subnet: 'private-subnet', 'np-system': 'system-pool', network: 'network' });
  });

  it('gives every resource exactly one role', () => {
    const all = { ...GKE, ...WORKLOAD };
    const roles = rolesOf(all);
    expect(Object.keys(roles).sort()).toEqual(Object.keys(all).sort());
    expect(Object.values(roles).every((role) => typeof role === 'string')).toBe(true);
  });
});

describe('resolveRoles: roles played inline', () => {
  it("finds a system pool declared inside the cluster (AKS defaultNodePool, Vultr nodePools)", () => {
    expect(resolveRoles(AKS, context()).inline).toEqual({ 'system-pool': 'aks' });
    expect(resolveRoles(VULTR, context()).inline).toEqual({ 'system-pool': 'vke' });
    // A cluster that declares every pool inline plays both pool roles inline.
    const allInline = { vke: managed('kubernetes.vultr.upbound.io/v1alpha1', 'Kubernetes', { nodePools: [{ label: 'system' }, { label: 'gpu' }] }) };
    expect(resolveRoles(allInline, context()).inline).toEqual({ 'system-pool': 'vke', 'node-pool': 'vke' });
  });

  it('takes what the adapter declares, and never calls a composed role inline', () => {
    const declared = resolveRoles({ cluster: managed('x.cloud/v1', 'Cluster') }, context({ adapter: { roles: {}, inline: { 'system-pool': 'cluster' } } }));
    expect(declared.inline).toEqual({ 'system-pool': 'cluster' });
    // GKE composes its system pool: nothing is inline, declared or not.
    expect(resolveRoles(GKE, context({ adapter: { roles: {}, inline: { 'system-pool': 'cluster' } } })).inline).toEqual({});
    // A holder that is not composed holds nothing.
    expect(resolveRoles({}, context({ adapter: { roles: {}, inline: { 'system-pool': 'cluster' } } })).inline).toEqual({});
  });
});

describe('planes: cloud, in-cluster, neither, by wiring', () => {
  it('classifies by what a resource is applied through, not by its API group', () => {
    const release = { apiVersion: 'helm.m.crossplane.io/v1beta1', kind: 'Release', spec: { forProvider: {}, providerConfigRef: { kind: 'ProviderConfig', name: 'demo' } } };
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: {} };
    const noRef = { apiVersion: 'compute.gcp.m.upbound.io/v1beta1', kind: 'Network', spec: { forProvider: {} } };
    const planes = planesOf({ ...WORKLOAD, ...VULTR, release, configMap, noRef, network: GKE.network }, DEFAULT_CREDENTIALS);
    expect(planes).toMatchObject({
      'storage-class-rwx': 'in-cluster',
      release: 'in-cluster',
      'provider-config-kubernetes': 'neither',
      'kubeconfig-copy': 'neither',
      configMap: 'neither',
      network: 'cloud',
      noRef: 'cloud', // a managed resource of a cloud API that forgot its ProviderConfig is still cloud
      vke: 'cloud',
    });
  });

  it("keeps a cloud resource on the cloud when the XR's credentials share a composed ProviderConfig's name", () => {
    const credentials = { kind: 'ProviderConfig', name: 'demo' }; // the XR's credentials are named like the XR
    const network = { apiVersion: 'compute.gcp.m.upbound.io/v1beta1', kind: 'Network', spec: { forProvider: {}, providerConfigRef: credentials } };
    const planes = planesOf({ network, ...WORKLOAD }, credentials);
    expect(planes).toMatchObject({ network: 'cloud', 'storage-class-rwx': 'in-cluster' });
    // A ProviderConfig the function composes for its cloud (from a service-account key) is not the
    // workload cluster's: what goes through it is cloud.
    const gcpPc = { apiVersion: 'gcp.m.upbound.io/v1beta1', kind: 'ProviderConfig', metadata: { name: 'demo' }, spec: { credentials: { source: 'Secret', secretRef: { name: 'demo-sa-key', key: 'k' } } } };
    expect(planesOf({ network, gcpPc, ...WORKLOAD }, DEFAULT_CREDENTIALS)).toMatchObject({ network: 'cloud', gcpPc: 'neither' });
    // One that reads the kubeconfig is, whatever its provider: its family's resources go through it.
    const kubePc = { ...gcpPc, spec: { credentials: KUBECONFIG_READ } };
    expect(planesOf({ network, kubePc, ...WORKLOAD }, DEFAULT_CREDENTIALS).network).toBe('in-cluster');
  });

  it("counts a resource on the XR's own credentials as cloud, whatever its group", () => {
    const custom = { kind: 'ProviderConfig', name: 'team-a' };
    const odd = { apiVersion: 'v1', kind: 'Thing', spec: { providerConfigRef: custom } };
    expect(planesOf({ odd }, custom).odd).toBe('cloud');
  });
});

describe('skeletons and rules use one classification', () => {
  const traceOf = (resources: Record<string, JsonObject>, ready: Record<string, boolean> = {}): Trace => {
    const entries = (step: number) =>
      Object.fromEntries(Object.entries(resources).map(([key, resource]) => [key, { resource, ready: ready[key] === false ? 'Unspecified' : step > 0 || ready[key] ? ('True' as const) : ('Unspecified' as const) }]));
    const step = (index: number) => ({
      index,
      phase: 'converge',
      calls: 1,
      requirements: {},
      satisfied: [],
      status: { secrets: [{ type: 'Kubeconfig', name: 'demo-kubeconfig', key: 'kubeconfig' }] },
      resources: entries(index),
      results: [],
      dropped: [],
      xrReady: index > 0,
      xr: { apiVersion: 'x/v1', kind: 'XCluster', metadata: { name: 'demo', namespace: 'ml-team' } },
      names: {},
    });
    return { provider: 'vultr', scenario: 'converge', xr: { name: 'demo', namespace: 'ml-team', uid: 'u' }, steps: [step(0), step(1), step(1)].map((s, i) => ({ ...s, index: i })), converged: { step: 1, xrReady: true }, perturbations: [] };
  };
  const judge = (resources: Record<string, JsonObject>, ready: Record<string, boolean> = {}) => {
    const skeleton = skeletonize({ trace: traceOf(resources, ready), adapter: { roles: {}, values: {} }, pools: ['gpu'] });
    return { skeleton, ids: checkRules({ skeleton, scenario: scenarioOf('converge') }).map((finding) => finding.id.split(':').slice(1, 2).concat(finding.subject).join(' ')) };
  };

  it('gives a core Secret composed directly neither cloud-credentials-ref nor no-early-ready', () => {
    // Marked ready the step it is composed, with no ProviderConfig: fine for a Secret.
    const { skeleton, ids } = judge({ ...VULTR, ...WORKLOAD }, { 'kubeconfig-copy': true });
    expect(skeleton.resources['kubeconfig-copy']).toMatchObject({ plane: 'neither', readyBy: 'composed' });
    expect(ids.filter((id) => id.endsWith('kubeconfig-copy'))).toEqual([]);
    // The same marking on a cloud resource is caught.
    const early = judge({ ...VULTR, ...WORKLOAD }, { vke: true });
    expect(early.ids).toContain('no-early-ready vke');
  });

  it('catches Delete on a Helm Release applied through the per-cluster ProviderConfig', () => {
    const release = (policies: string[]) => ({ apiVersion: 'helm.m.crossplane.io/v1beta1', kind: 'Release', spec: { forProvider: { chart: { name: 'gpu-operator' } }, providerConfigRef: { kind: 'ProviderConfig', name: 'demo' }, managementPolicies: policies } });
    const bad = judge({ ...GKE, ...WORKLOAD, 'gpu-operator': release(['Observe', 'Create', 'Update', 'Delete']) });
    expect(bad.skeleton.resources['gpu-operator']!.plane).toBe('in-cluster');
    expect(bad.ids).toContain('in-cluster-no-delete gpu-operator');
    expect(bad.ids).not.toContain('cloud-credentials-ref gpu-operator');
    const good = judge({ ...GKE, ...WORKLOAD, 'gpu-operator': release(['Observe', 'Create', 'Update', 'LateInitialize']) });
    expect(good.ids.filter((id) => id.endsWith('gpu-operator'))).toEqual([]);
  });

  it('records inline roles, which presence reports as inline rather than absent', () => {
    const { skeleton } = judge({ ...AKS, ...WORKLOAD });
    expect(skeleton.inline).toEqual({ 'system-pool': 'aks' });
    expect(presenceOf(skeleton, 'system-pool')).toBe('inline');
    expect(presenceOf(skeleton, 'node-pool')).toBe('composed');
    expect(presenceOf(skeleton, 'subnet')).toBe('absent');
  });
});
