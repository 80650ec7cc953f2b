import { createHash } from 'node:crypto';
import type { Adapter, K8sObject, Scenario, ScenarioPool } from '../config/types.js';
import { deepMerge, getPath, isObject, type JsonObject } from '../util/objects.js';

/** A deterministic uid, so composed names and traces are the same on every run. */
export function xrUid(scenario: Pick<Scenario, 'xr'>): string {
  const hex = createHash('sha256').update(`${scenario.xr.namespace}/${scenario.xr.name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const WHOLE = /^\$\{([a-z]+)\.([A-Za-z0-9]+)\}$/;
const EMBEDDED = /\$\{([a-z]+)\.([A-Za-z0-9]+)\}/g;

/**
 * Fills an adapter's node-pool template. "${pool.gpuCount}" alone keeps the value's type; a
 * reference that resolves to nothing removes its key, so a CPU pool carries no GPU block.
 */
export function fillTemplate(template: unknown, scope: Record<string, JsonObject | undefined>): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template);
    if (whole) return getPath(scope[whole[1]!], [whole[2]!]);
    let missing = false;
    const text = template.replace(EMBEDDED, (_match, root: string, field: string) => {
      const value = getPath(scope[root], [field]);
      if (value === undefined) missing = true;
      return String(value);
    });
    return missing ? undefined : text;
  }
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, scope)).filter((item) => item !== undefined);
  if (isObject(template)) {
    const entries = Object.entries(template)
      .map(([key, value]) => [key, fillTemplate(value, scope)] as const)
      .filter(([, value]) => value !== undefined && !(isObject(value) && Object.keys(value).length === 0));
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return template;
}

function nodePool(adapter: Adapter, pool: ScenarioPool): JsonObject {
  const { gpu, gpuCount: _gpuCount, ...intent } = pool;
  const scope = { pool: pool as unknown as JsonObject, gpu: gpu === undefined ? undefined : adapter.xr.gpus[gpu] };
  const filled = fillTemplate(adapter.xr.nodePool, scope);
  return { ...intent, ...(isObject(filled) ? filled : {}) };
}

/** The provider's XR for a scenario: the adapter's cloud spec under the scenario's cloud-neutral intent. */
export function buildXR(adapter: Adapter, scenario: Scenario): K8sObject {
  const intent: JsonObject = { nodePools: scenario.xr.nodePools.map((pool) => nodePool(adapter, pool)) };
  if (scenario.xr.credentials) intent.credentials = { ...scenario.xr.credentials };
  return {
    apiVersion: adapter.xr.apiVersion,
    kind: adapter.xr.kind,
    metadata: { name: scenario.xr.name, namespace: scenario.xr.namespace, uid: xrUid(scenario) },
    spec: deepMerge(adapter.xr.spec, intent),
  };
}

/**
 * The world's credential resources for this scenario: the adapter's, renamed to the XR's credentials
 * reference. A namespaced ProviderConfig lives in the XR's namespace.
 */
export function worldCredentials(adapter: Adapter, scenario: Scenario): K8sObject[] {
  const ref = scenario.xr.credentials;
  return adapter.world.credentials.map((resource) => {
    if (!ref) return structuredClone(resource);
    const { namespace: _namespace, ...metadata } = resource.metadata;
    return {
      ...structuredClone(resource),
      kind: ref.kind,
      metadata: { ...metadata, name: ref.name, ...(ref.kind === 'ProviderConfig' ? { namespace: scenario.xr.namespace } : {}) },
    };
  });
}
