/** Structural facts of one composed resource body, cloud-neutral where the contract is. */
import { isObject, type JsonObject } from '../util/objects.js';

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

/** Fields that hold labels under the names clouds use; an adapter's `labelFields` names more. */
export const LABEL_FIELDS: readonly string[] = ['labels', 'nodeLabels'];

/** Label keys from every usual shape: a map, or a list of `{key, value}` (or `{name, value}`) pairs. */
function keysOf(labels: unknown): string[] {
  if (Array.isArray(labels)) {
    return labels.flatMap((pair) => {
      if (!isObject(pair)) return [];
      const key = pair.key ?? pair.name;
      return typeof key === 'string' ? [key] : [];
    });
  }
  return isObject(labels) ? Object.keys(labels) : [];
}

/**
 * Label keys on what the resource creates (node labels, template labels), anywhere under spec and
 * whatever the field is called. The resource's own metadata labels are `metadataOf`'s; selectors
 * (`matchLabels`) choose other resources and label nothing.
 */
export function labelKeys(resource: JsonObject, extraFields: readonly string[] = []): string[] | undefined {
  const fields = new Set([...LABEL_FIELDS, ...extraFields]);
  const found = new Set<string>();
  const visit = (value: unknown, field: string) => {
    if (field === 'matchLabels') return;
    if (fields.has(field) && (isObject(value) || Array.isArray(value))) {
      keysOf(value).forEach((key) => found.add(key));
      return;
    }
    if (Array.isArray(value)) value.forEach((item) => visit(item, field));
    if (!isObject(value)) return;
    for (const [key, item] of Object.entries(value)) visit(item, key);
  };
  visit(resource.spec, 'spec');
  return found.size ? [...found].sort() : undefined;
}

/** The composed resource's own metadata conventions: the namespace it sets, its label and annotation keys. */
export function metadataOf(resource: JsonObject): { namespace?: string; labels?: string[]; annotations?: string[] } | undefined {
  const metadata = isObject(resource.metadata) ? resource.metadata : {};
  const out: { namespace?: string; labels?: string[]; annotations?: string[] } = {};
  if (typeof metadata.namespace === 'string') out.namespace = metadata.namespace;
  const labels = keysOf(metadata.labels).sort();
  if (labels.length) out.labels = labels;
  const annotations = keysOf(metadata.annotations).sort();
  if (annotations.length) out.annotations = annotations;
  return Object.keys(out).length ? out : undefined;
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
