import { isObject, type JsonObject } from '../util/objects.js';

/** Structural facts of one composed resource body, cloud-neutral where the contract is. */

/** In-cluster resources (ProviderConfigs, Objects) are served by Crossplane's own providers; cloud resources are not. */
export function isInCluster(apiVersion: string): boolean {
  return /\.crossplane\.io\//.test(`${apiVersion}/`);
}

export function providerConfigRef(resource: JsonObject): { kind: string; name: string } | undefined {
  const spec = isObject(resource.spec) ? resource.spec : {};
  const ref = spec.providerConfigRef;
  if (!isObject(ref)) return undefined;
  return { kind: String(ref.kind ?? ''), name: String(ref.name ?? '') };
}

export function managementPolicies(resource: JsonObject): string[] | undefined {
  const spec = isObject(resource.spec) ? resource.spec : {};
  return Array.isArray(spec.managementPolicies) ? spec.managementPolicies.map(String) : undefined;
}

export function readinessPolicy(resource: JsonObject): string | undefined {
  const spec = isObject(resource.spec) ? resource.spec : {};
  const readiness = spec.readiness;
  return isObject(readiness) && typeof readiness.policy === 'string' ? readiness.policy : undefined;
}

export function writesSecret(resource: JsonObject): string | undefined {
  const spec = isObject(resource.spec) ? resource.spec : {};
  const ref = spec.writeConnectionSecretToRef;
  if (!isObject(ref) || typeof ref.name !== 'string') return undefined;
  return typeof ref.namespace === 'string' ? `${ref.namespace}/${ref.name}` : ref.name;
}

/** Every `*secretRef` under spec that names a Secret and a key, as `namespace/name:key`. */
export function readsSecrets(resource: JsonObject): string[] | undefined {
  const found = new Set<string>();
  const visit = (value: unknown, field: string) => {
    if (Array.isArray(value)) value.forEach((item) => visit(item, field));
    if (!isObject(value)) return;
    if (/secretref$/i.test(field) && field !== 'writeConnectionSecretToRef' && typeof value.name === 'string') {
      const namespace = typeof value.namespace === 'string' ? `${value.namespace}/` : '';
      found.add(`${namespace}${value.name}:${typeof value.key === 'string' ? value.key : ''}`);
    }
    for (const [key, item] of Object.entries(value)) visit(item, key);
  };
  visit(resource.spec, 'spec');
  return found.size ? [...found].sort() : undefined;
}

/** Label keys on the resource and on anything it creates (node labels, template labels). */
export function labelKeys(resource: JsonObject): string[] | undefined {
  const found = new Set<string>();
  const visit = (value: unknown, field: string) => {
    if (Array.isArray(value)) value.forEach((item) => visit(item, field));
    if (!isObject(value)) return;
    if (field === 'labels' || field === 'matchLabels') {
      if (field === 'labels') Object.keys(value).forEach((key) => found.add(key));
      return;
    }
    for (const [key, item] of Object.entries(value)) visit(item, key);
  };
  visit(resource, '');
  return found.size ? [...found].sort() : undefined;
}

/** What an in-cluster Object carries: `Kind/name` of spec.forProvider.manifest. */
export function manifestOf(resource: JsonObject): string | undefined {
  const spec = isObject(resource.spec) ? resource.spec : {};
  const forProvider = isObject(spec.forProvider) ? spec.forProvider : {};
  const manifest = forProvider.manifest;
  if (!isObject(manifest)) return undefined;
  const metadata = isObject(manifest.metadata) ? manifest.metadata : {};
  return `${String(manifest.kind ?? '')}/${String(metadata.name ?? '')}`;
}
