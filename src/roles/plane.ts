import { isObject, type JsonObject } from '../util/objects.js';

/**
 * Where a composed resource lives, decided by its wiring rather than by its API group:
 * - `in-cluster`: applied through a ProviderConfig the function itself composes for the workload
 *   cluster (`composedProviderConfigs`), whatever its kind: an Object, a Helm Release, anything else;
 * - `cloud`: references the XR's credentials, or is a managed resource of any other API (it has a
 *   `spec.forProvider` or a `spec.providerConfigRef` and is not a built-in Kubernetes kind);
 * - `neither`: a core or built-in object composed directly (a Secret, a ConfigMap) and the
 *   ProviderConfigs the function composes: nothing reconciles them against a cloud or a cluster.
 * Rules and perturbation outcomes all use this one classification.
 */
export type Plane = 'cloud' | 'in-cluster' | 'neither';

export interface Credentials {
  kind: string;
  name: string;
}

/** The XR's credentials when the scenario names none, as every bundled function defaults them. */
export const DEFAULT_CREDENTIALS: Credentials = { kind: 'ClusterProviderConfig', name: 'default' };

const PROVIDER_CONFIG_KINDS: ReadonlySet<string> = new Set(['ProviderConfig', 'ClusterProviderConfig']);

/** API groups the API server itself serves: objects of these are never managed by a provider. */
function isBuiltIn(apiVersion: string): boolean {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return true; // the core group: v1
  const group = apiVersion.slice(0, slash);
  return !group.includes('.') || group.endsWith('.k8s.io');
}

export function isProviderConfig(resource: JsonObject): boolean {
  return PROVIDER_CONFIG_KINDS.has(String(resource.kind ?? ''));
}

function specOf(resource: JsonObject): JsonObject {
  return isObject(resource.spec) ? resource.spec : {};
}

function refOf(resource: JsonObject): { kind?: string; name: string } | undefined {
  const ref = specOf(resource).providerConfigRef;
  if (!isObject(ref) || typeof ref.name !== 'string') return undefined;
  return { ...(typeof ref.kind === 'string' ? { kind: ref.kind } : {}), name: ref.name };
}

/** Whether the resource is reconciled through the XR's cloud credentials (its providerConfigRef names them). */
export function referencesCredentials(resource: JsonObject, credentials: Credentials): boolean {
  const ref = refOf(resource);
  return ref !== undefined && ref.kind === credentials.kind && ref.name === credentials.name;
}

/** A ProviderConfig the function composes for the workload cluster: what in-cluster resources are applied through. */
export interface ComposedProviderConfig {
  key: string;
  kind: string;
  name: string;
  /** Its API group: the provider that serves it (`kubernetes.m.crossplane.io`, `helm.m.crossplane.io`, ...). */
  group: string;
}

export function apiGroup(apiVersion: unknown): string {
  const text = String(apiVersion ?? '');
  return text.includes('/') ? text.slice(0, text.indexOf('/')) : '';
}

/** Crossplane's providers that reach a Kubernetes API (provider-kubernetes, provider-helm), by API group. */
export function isKubernetesProviderGroup(group: string): boolean {
  return /^(kubernetes|helm)\.(m\.)?crossplane\.io$/.test(group);
}

/** Names of the Secrets a resource reads through any `*secretRef` under spec. */
export function secretsRead(value: unknown, field = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => secretsRead(item, field));
  if (!isObject(value)) return [];
  const own = /secretref$/i.test(field) && field !== 'writeConnectionSecretToRef' && typeof value.name === 'string' ? [value.name] : [];
  return [...own, ...Object.entries(value).flatMap(([key, item]) => secretsRead(item, key))];
}

/**
 * The ProviderConfigs the function composes for the workload cluster: those of provider-kubernetes
 * and provider-helm, and any other that reads the same Secret they read (the kubeconfig). A
 * ProviderConfig composed for a cloud (say, from a service-account key) is not one of them.
 */
export function composedProviderConfigs(resources: Record<string, JsonObject>): ComposedProviderConfig[] {
  const all: Array<ComposedProviderConfig & { reads: string[] }> = [];
  for (const key of Object.keys(resources).sort()) {
    const resource = resources[key]!;
    const metadata = isObject(resource.metadata) ? resource.metadata : {};
    if (!isProviderConfig(resource) || typeof metadata.name !== 'string') continue;
    all.push({ key, kind: String(resource.kind), name: metadata.name, group: apiGroup(resource.apiVersion), reads: secretsRead(specOf(resource)) });
  }
  const kubeconfigs = new Set(all.filter((pc) => isKubernetesProviderGroup(pc.group)).flatMap((pc) => pc.reads));
  return all
    .filter((pc) => isKubernetesProviderGroup(pc.group) || pc.reads.some((secret) => kubeconfigs.has(secret)))
    .map(({ reads: _reads, ...pc }) => pc);
}

/**
 * The composed ProviderConfig a resource is applied through, if any. A providerConfigRef names no
 * API group: the resource's own provider serves it, so the ProviderConfig's group must be the
 * resource's group or its provider's (`compute.gcp.m.upbound.io` → `gcp.m.upbound.io`). That keeps a
 * cloud resource whose credentials happen to share a composed ProviderConfig's name on the cloud.
 */
export function appliedThrough(resource: JsonObject, composed: readonly ComposedProviderConfig[]): ComposedProviderConfig | undefined {
  const ref = refOf(resource);
  if (!ref) return undefined;
  const group = apiGroup(resource.apiVersion);
  return composed.find(
    (pc) => pc.name === ref.name && (ref.kind === undefined || ref.kind === pc.kind) && pc.group !== '' && (group === pc.group || group.endsWith(`.${pc.group}`)),
  );
}

/** The plane of one resource, given the ProviderConfigs composed beside it (`composedProviderConfigs`). */
export function planeOf(resource: JsonObject, composed: readonly ComposedProviderConfig[], credentials: Credentials): Plane {
  if (isProviderConfig(resource)) return 'neither';
  if (appliedThrough(resource, composed)) return 'in-cluster';
  if (referencesCredentials(resource, credentials)) return 'cloud';
  const managed = refOf(resource) !== undefined || 'forProvider' in specOf(resource);
  return managed && !isBuiltIn(String(resource.apiVersion ?? '')) ? 'cloud' : 'neither';
}

/** The plane of every key of one desired (or observed) state. */
export function planesOf(resources: Record<string, JsonObject>, credentials: Credentials): Record<string, Plane> {
  const composed = composedProviderConfigs(resources);
  return Object.fromEntries(Object.entries(resources).map(([key, resource]) => [key, planeOf(resource, composed, credentials)]));
}
