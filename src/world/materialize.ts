import { createHash } from 'node:crypto';
import type { FactRule, K8sObject } from '../config/types.js';
import { isObject, splitPath, withPath, type JsonObject } from '../util/objects.js';

/** Crossplane sets no timestamps drift could keep stable, so every condition carries this one. */
export const FIXED_TIME = '2026-01-01T00:00:00Z';
export const COMPOSITION_RESOURCE_NAME = 'crossplane.io/composition-resource-name';

/** Crossplane's name for a new composed resource: `<xr>-<12 hex of sha256(uid + key)>`. */
export function composedName(xr: K8sObject, key: string): string {
  const uid = String(xr.metadata.uid ?? '');
  return `${xr.metadata.name}-${createHash('sha256').update(uid + key).digest('hex').slice(0, 12)}`;
}

/** ProviderConfigs carry no conditions in a real control plane, so a function cannot wait on them. */
export function hasConditions(kind: unknown): boolean {
  return kind !== 'ProviderConfig' && kind !== 'ClusterProviderConfig';
}

/**
 * An existing resource its provider can no longer reconcile (its ProviderConfig is gone): the desired
 * spec is recorded, but the cloud state — Ready, facts — stays as it was, and Synced turns False.
 */
export function stall(existing: JsonObject, desired: JsonObject): JsonObject {
  const status = isObject(existing.status) ? existing.status : {};
  const conditions = (Array.isArray(status.conditions) ? status.conditions : []).map((c) =>
    isObject(c) && c.type === 'Synced' ? condition('Synced', false, 'ReconcileError') : c,
  );
  return { ...existing, spec: desired.spec, status: { ...status, conditions } };
}

export function condition(type: string, ready: boolean, reason: string): JsonObject {
  return { type, status: ready ? 'True' : 'False', reason, lastTransitionTime: FIXED_TIME };
}

export interface Materialize {
  xr: K8sObject;
  key: string;
  desired: JsonObject;
  /** The name it already has in observed state; existing resources keep their names. */
  existingName: string | undefined;
  ready: boolean;
  /** False while its provider cannot reconcile it (its ProviderConfig is gone). */
  synced?: boolean;
  /** Facts the cloud publishes on it, less any withheld for gating analysis. */
  facts: FactRule[];
}

/** A desired resource as the simulated control plane observes it after it is applied. */
export function materialize({ xr, key, desired, existingName, ready, synced = true, facts }: Materialize): JsonObject {
  // Shallow copies along every path written below: the desired body stays untouched for the trace.
  let resource: JsonObject = { ...desired };
  const metadata = isObject(resource.metadata) ? resource.metadata : {};
  const name = existingName ?? (typeof metadata.name === 'string' && metadata.name ? metadata.name : composedName(xr, key));
  const annotations = isObject(metadata.annotations) ? metadata.annotations : {};
  resource.metadata = {
    ...metadata,
    name,
    namespace: typeof metadata.namespace === 'string' ? metadata.namespace : xr.metadata.namespace,
    annotations: { ...annotations, [COMPOSITION_RESOURCE_NAME]: key },
  };
  if (hasConditions(resource.kind)) {
    const status = isObject(resource.status) ? resource.status : {};
    resource.status = {
      ...status,
      conditions: [condition('Ready', ready, ready ? 'Available' : 'Creating'), condition('Synced', synced, synced ? 'ReconcileSuccess' : 'ReconcileError')],
    };
  }
  for (const rule of facts) {
    for (const [dotted, template] of Object.entries(rule.set)) {
      resource = withPath(resource, splitPath(dotted), template.replaceAll('{name}', name));
    }
  }
  return resource;
}

/** The connection Secret a resource writes, so requirements for it can be answered. */
export function connectionSecret(resource: JsonObject, key: string): K8sObject | undefined {
  const spec = isObject(resource.spec) ? resource.spec : {};
  const ref = spec.writeConnectionSecretToRef;
  if (!isObject(ref) || typeof ref.name !== 'string') return undefined;
  const metadata = isObject(resource.metadata) ? resource.metadata : {};
  const namespace = typeof ref.namespace === 'string' ? ref.namespace : String(metadata.namespace ?? '');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: ref.name, namespace, annotations: { 'drift.modelplane.ai/written-by': key } },
    type: 'connection.crossplane.io/v1alpha1',
  };
}
