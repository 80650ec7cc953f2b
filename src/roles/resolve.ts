import { CONTRACT_ROLES, overrideRole, type RoleOverrides } from './catalog.js';
import { escapeRegExp, isObject, type JsonObject } from '../util/objects.js';
import { apiGroup, appliedThrough, composedProviderConfigs, isKubernetesProviderGroup, isProviderConfig, planeOf, secretsRead, type Credentials, type Plane } from './plane.js';
import { MemoWeakMap } from '../util/memoMap.js';

/**
 * Which contract role each composed resource plays, inferred from what it is and does. The evidence,
 * in this fixed order, the first that decides wins:
 *
 * 1. the adapter's `roles` map (key pattern → role), an override for what inference gets wrong;
 * 2. its kind, for cloud resources: a cluster (`Cluster`, AKS `KubernetesCluster`, Vultr
 *    `Kubernetes`, ...), a node pool (`NodePool`, `NodeGroup`, `KubernetesClusterNodePool`, `NodePools`, ...),
 *    a network (`Network`, `VPC`, `VirtualNetwork`), a subnet (`Subnet`, `Subnetwork`); a composed
 *    ProviderConfig of provider-kubernetes or provider-helm by its API group;
 * 3. its wiring: a composed ProviderConfig by what is applied through it (an Object → kubernetes, a
 *    Release → helm); what is applied through a composed ProviderConfig and carries a StorageClass is
 *    the cache StorageClass; with no cluster by kind, the resource writing the Secret a composed
 *    ProviderConfig reads is the cluster;
 * 4. the pool it serves: a resource carrying the label `modelplane.ai/pool` is a node pool; a pool
 *    serving a requested pool (by that label's value, else by a pool name in its key or name) plays
 *    `node-pool`, any other pool (the one the function injects) `system-pool`.
 *
 * A key none of these decides is cloud-only: its role is the key itself. One resource plays one role.
 * A role may also be played *inside* another resource (a system pool inline in the cluster): see
 * `inlineRoles`.
 */

export const POOL_LABEL = 'modelplane.ai/pool';

/** Stands for "a node pool" until the pool evidence says which one. */
const POOL = '\u0000pool';

/** Kinds of the clouds' Crossplane providers; a cloud spelled otherwise maps its keys with `roles`. */
const KIND_ROLES: Readonly<Record<string, string>> = {
  Cluster: 'cluster',
  KubernetesCluster: 'cluster',
  Kubernetes: 'cluster',
  ManagedCluster: 'cluster',
  NodePool: POOL,
  NodeGroup: POOL,
  KubernetesClusterNodePool: POOL,
  KubernetesNodePool: POOL,
  NodePools: POOL,
  ManagedClustersAgentPool: POOL,
  Network: 'network',
  VPC: 'network',
  VirtualNetwork: 'network',
  Subnet: 'subnet',
  Subnetwork: 'subnet',
};

/** Fields of a cluster's spec.forProvider that declare node pools inline (AKS defaultNodePool, Vultr nodePools). */
const INLINE_POOL_FIELD = /^(default)?node_?pools?$/i;

export interface RoleContext {
  adapter: RoleOverrides & { inline: Record<string, string> };
  pools: readonly string[];
  credentials: Credentials;
}

export interface RoleResolution {
  roles: Record<string, string>;
  planes: Record<string, Plane>;
  /** Roles played inside another composed resource: role → the key of the resource that holds it. */
  inline: Record<string, string>;
}

function specOf(resource: JsonObject): JsonObject {
  return isObject(resource.spec) ? resource.spec : {};
}

function forProviderOf(resource: JsonObject): JsonObject {
  const forProvider = specOf(resource).forProvider;
  return isObject(forProvider) ? forProvider : {};
}

/**
 * The value of the pool label wherever the resource carries it, whatever the field is called: maps,
 * or lists of `{key, value}`. A selector (`matchLabels`) chooses pools; it is none.
 */
export function poolLabel(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = poolLabel(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  if (value.key === POOL_LABEL && typeof value.value === 'string') return value.value;
  for (const [field, item] of Object.entries(value)) {
    if (field === 'matchLabels') continue;
    if (isObject(item) && typeof item[POOL_LABEL] === 'string') return item[POOL_LABEL];
    const found = poolLabel(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * poolLabel of a whole composed body, once per body: bodies are shared by every answer that carries
 * the same bytes and never changed, and each is resolved in every simulation step and skeleton that
 * holds it.
 */
const bodyLabels = new MemoWeakMap<JsonObject, string | null>();

function poolLabelOf(body: JsonObject): string | undefined {
  let label = bodyLabels.get(body);
  if (label === undefined) bodyLabels.set(body, (label = poolLabel(body) ?? null));
  return label ?? undefined;
}

/** Whether a requested pool's name is a whole segment of the text (`np-gpu`, `demo-gpu`, `gpu`). */
function namesPool(text: string, pools: readonly string[]): boolean {
  return pools.some((pool) => new RegExp(`(^|[-_.])${escapeRegExp(pool)}($|[-_.])`).test(text));
}

/** A pool (by kind, label or inline declaration) serves a requested pool, or is the injected system pool. */
function whichPool(label: string | undefined, names: string[], pools: readonly string[]): 'node-pool' | 'system-pool' {
  // The label is the stronger evidence: when present, only it decides (`gpu`, or a derived `demo-gpu`).
  return (label !== undefined ? [label] : names).some((name) => namesPool(name, pools)) ? 'node-pool' : 'system-pool';
}

function nameOf(resource: JsonObject): string[] {
  const metadata = isObject(resource.metadata) ? resource.metadata : {};
  return [metadata.name, forProviderOf(resource).name].filter((name): name is string => typeof name === 'string');
}

/** provider-kubernetes' and provider-helm's ProviderConfigs, by their API group. */
function providerConfigByGroup(resource: JsonObject): string | undefined {
  const group = apiGroup(resource.apiVersion);
  if (!isKubernetesProviderGroup(group)) return undefined;
  return group.startsWith('helm.') ? 'provider-config-helm' : 'provider-config-kubernetes';
}

function manifestKind(resource: JsonObject): string | undefined {
  const manifest = forProviderOf(resource).manifest;
  return isObject(manifest) && typeof manifest.kind === 'string' ? manifest.kind : undefined;
}

function secretWritten(resource: JsonObject): string | undefined {
  const ref = specOf(resource).writeConnectionSecretToRef;
  return isObject(ref) && typeof ref.name === 'string' ? ref.name : undefined;
}

/** Roles of every key of one desired state, with each key's plane and the roles played inline. */
export function resolveRoles(resources: Record<string, JsonObject>, context: RoleContext): RoleResolution {
  const { adapter, pools, credentials } = context;
  const keys = Object.keys(resources).sort();
  const composed = composedProviderConfigs(resources);
  const planes: Record<string, Plane> = {};
  for (const key of keys) planes[key] = planeOf(resources[key]!, composed, credentials);
  const roles: Record<string, string> = {};
  const decided = new Set<string>();
  const decide = (key: string, role: string | undefined) => {
    if (role === undefined || decided.has(key)) return;
    roles[key] = role;
    decided.add(key);
  };

  // 1. the adapter's override
  for (const key of keys) decide(key, overrideRole(adapter, key, pools));

  // 2. the kind
  for (const key of keys) {
    const resource = resources[key]!;
    if (isProviderConfig(resource)) decide(key, providerConfigByGroup(resource));
    else if (planes[key] === 'cloud') decide(key, KIND_ROLES[String(resource.kind ?? '')]);
  }

  // 3. the wiring
  for (const key of keys) {
    const resource = resources[key]!;
    const through = appliedThrough(resource, composed);
    if (!through) continue;
    if (manifestKind(resource) === 'StorageClass') decide(key, 'cache-storage-class');
    // What is applied through a ProviderConfig of unknown group says which provider serves it.
    if (resource.kind === 'Release') decide(through.key, 'provider-config-helm');
    else if (resource.kind === 'Object') decide(through.key, 'provider-config-kubernetes');
  }
  if (!keys.some((key) => roles[key] === 'cluster')) {
    const read = new Set(composed.flatMap((pc) => secretsRead(specOf(resources[pc.key]!))));
    const writer = keys.find((key) => !decided.has(key) && planes[key] === 'cloud' && read.has(secretWritten(resources[key]!) ?? '\u0000'));
    if (writer !== undefined) decide(writer, 'cluster');
  }

  // 4. the pool it serves
  for (const key of keys) {
    const resource = resources[key]!;
    const label = poolLabelOf(resource);
    if (roles[key] === POOL || (!decided.has(key) && label !== undefined && planes[key] === 'cloud')) {
      roles[key] = whichPool(label, [key, ...nameOf(resource)], pools);
      decided.add(key);
    }
  }

  for (const key of keys) if (!decided.has(key)) roles[key] = key;
  return { roles, planes, inline: inlineRoles(resources, roles, context) };
}

/**
 * Roles played inside another resource rather than by a composed one: what the adapter's `inline`
 * map declares (role → the role of the resource that holds it), and node pools drift finds declared
 * in the cluster's spec.forProvider (AKS `defaultNodePool`, Vultr `nodePools`). A role some composed
 * resource plays is composed, never inline.
 */
export function inlineRoles(resources: Record<string, JsonObject>, roles: Record<string, string>, context: RoleContext): Record<string, string> {
  const played = new Set(Object.values(roles));
  const holder = (role: string) => Object.keys(roles).sort().find((key) => roles[key] === role);
  const out: Record<string, string> = {};
  for (const [role, host] of Object.entries(context.adapter.inline).sort()) {
    const key = holder(host);
    if (key !== undefined && !played.has(role)) out[role] = key;
  }
  const cluster = holder('cluster');
  if (cluster !== undefined) {
    for (const { role } of inlinePools(resources[cluster]!, context.pools)) if (!played.has(role) && out[role] === undefined) out[role] = cluster;
  }
  return out;
}

/**
 * The node pools a cluster declares in its spec.forProvider (AKS `defaultNodePool`, Vultr
 * `nodePools`), each with the pool role it plays and its declaration, in field order.
 */
export function inlinePools(cluster: JsonObject, pools: readonly string[]): Array<{ role: 'node-pool' | 'system-pool'; body: JsonObject }> {
  const out: Array<{ role: 'node-pool' | 'system-pool'; body: JsonObject }> = [];
  for (const [field, value] of Object.entries(forProviderOf(cluster)).sort()) {
    if (!INLINE_POOL_FIELD.test(field)) continue;
    for (const pool of (Array.isArray(value) ? value : [value]).filter(isObject)) {
      // Clouds name an inline pool by `name` (AKS) or `label` (Vultr).
      const names = [pool.name, pool.label].filter((name): name is string => typeof name === 'string');
      out.push({ role: whichPool(poolLabelOf(pool), names, pools), body: pool });
    }
  }
  return out;
}

/** What each contract role is for, in the contract's words: CONTRACT.md's list of what every implementation exposes. */
const ROLE_MEANING: Readonly<Record<string, string>> = {
  network: 'the cloud network (VPC) the cluster lives in; absent where the cloud has none',
  subnet: 'its subnet(s), one per zone where the cloud wants that',
  cluster: 'the managed Kubernetes cluster; it writes the kubeconfig Secret published in status.secrets',
  'system-pool': 'the node pool the function adds for system workloads (composed, or inline in the cluster)',
  'node-pool': 'one per spec.nodePools[] entry, labelled modelplane.ai/pool with the pool name',
  'provider-config-kubernetes': "provider-kubernetes' ProviderConfig for the workload cluster, reading the published kubeconfig",
  'provider-config-helm': "provider-helm's ProviderConfig for the workload cluster, reading the published kubeconfig",
  'cache-storage-class': 'the RWX StorageClass named in status.cache, applied in the workload cluster',
};

export interface RoleDescription {
  role: string;
  meaning: string;
  /** Kinds of cloud resources drift infers the role from (the pools' kinds serve both pool roles). */
  kinds: string[];
}

/** Every contract role with its meaning and the kinds that play it, in CONTRACT_ROLES order. */
export function describeRoles(): RoleDescription[] {
  return [...CONTRACT_ROLES].map((role) => ({
    role,
    meaning: ROLE_MEANING[role] ?? role,
    kinds: Object.entries(KIND_ROLES)
      .filter(([, played]) => played === role || (played === POOL && role.endsWith('-pool')))
      .map(([kind]) => kind),
  }));
}
