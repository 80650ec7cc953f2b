/** Body facts: structural facts of one composed resource body, cloud-neutral where the contract is ("facets" are what is compared across providers, src/facets/). */
import { escapeRegExp, isObject, type JsonObject } from '../util/objects.js';
import { MemoWeakMap } from '../util/memoMap.js';

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

/**
 * Fields that usually hold labels. Hints, not the only places looked: labelKeys also finds labels
 * wherever the contract's own label keys sit (see POOL_LABEL_KEYS), and an adapter's `labelFields`
 * names more hints.
 */
export const LABEL_FIELDS: readonly string[] = ['labels', 'nodeLabels'];

/** The node labels the contract gives every pool: where they sit in a body, the pool's labels are. */
export const POOL_LABEL_KEYS: readonly string[] = ['modelplane.ai/pool', 'modelplane.ai/gpu'];

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

/** A map or pair list that carries one of the pool's own labels (a contract key with a text value): a label set, whatever its field is called. */
function carriesPoolLabel(value: unknown): boolean {
  if (Array.isArray(value)) {
    return value.some((pair) => isObject(pair) && POOL_LABEL_KEYS.includes(String(pair.key ?? pair.name)) && typeof pair.value === 'string');
  }
  return isObject(value) && POOL_LABEL_KEYS.some((key) => typeof value[key] === 'string');
}

/**
 * Label keys on what the resource creates (node labels, template labels), anywhere under spec and
 * whatever the field is called: a map or `{key, value}` list is a label set when its field is a hint
 * (LABEL_FIELDS, the adapter's `labelFields`) or when it carries one of the pool's own labels. The
 * resource's own metadata labels are `metadataOf`'s; selectors (`matchLabels`) choose other
 * resources and label nothing; `skip` holds values read elsewhere (an inline pool's declaration,
 * whose labels are its pool's, not its host's).
 */
export function labelKeys(resource: JsonObject, extraFields: readonly string[] = [], skip: ReadonlySet<unknown> = new Set()): string[] | undefined {
  const fields = new Set([...LABEL_FIELDS, ...extraFields]);
  const found = new Set<string>();
  const visit = (value: unknown, field: string) => {
    if (field === 'matchLabels' || skip.has(value)) return;
    if ((isObject(value) || Array.isArray(value)) && (fields.has(field) || carriesPoolLabel(value))) {
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

/**
 * The objects under a body's spec that hold a pool's own label set (a map or `{key, value}` list carrying
 * a contract pool label), each the object the label set sits in: where a pool is declared inside another
 * resource, whatever the fields are called. Outermost first; one inside another counts once.
 */
export function poolDeclarations(resource: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  const visit = (value: unknown, holder: JsonObject | undefined) => {
    if (Array.isArray(value)) {
      value.forEach((item) => visit(item, holder));
      return;
    }
    if (!isObject(value)) return;
    for (const item of Object.values(value)) {
      if (carriesPoolLabel(item) && holder !== undefined) {
        out.push(value);
        return;
      }
    }
    for (const item of Object.values(value)) visit(item, value);
  };
  const spec = isObject(resource.spec) ? resource.spec : {};
  visit(spec, undefined);
  return out;
}

/** What other composed resources' bodies select (`matchLabels` keys) and mention (every string), for telling behavior from style. */
export interface Dependents {
  /** Label keys some other resource's selector matches. */
  selected: ReadonlySet<string>;
  /** Every string value of the other resources' bodies (field paths, references). */
  mentioned: readonly string[];
}

/** The label keys another body selects and the strings it carries, over all bodies but one. */
export function dependentsOf(bodies: Record<string, JsonObject>, except: string): Dependents {
  const selected = new Set<string>();
  const others: Array<readonly string[]> = [];
  for (const [key, body] of Object.entries(bodies)) {
    if (key === except) continue;
    const own = dependentsIn(body.spec);
    for (const label of own.selected) selected.add(label);
    others.push(own.mentioned);
  }
  return { selected, mentioned: others.flat() };
}

/**
 * What one body's spec selects and mentions, walked once per spec object: a skeleton asks it of
 * every body for each of its resources, and cells share bodies (answers are read once per function
 * process and never changed).
 */
const walked = new MemoWeakMap<object, { selected: readonly string[]; mentioned: readonly string[] }>();

function dependentsIn(spec: unknown): { selected: readonly string[]; mentioned: readonly string[] } {
  const known = isObject(spec) ? walked.get(spec) : undefined;
  if (known) return known;
  const selected: string[] = [];
  const mentioned: string[] = [];
  const visit = (value: unknown, field: string) => {
    if (typeof value === 'string') mentioned.push(value);
    if (Array.isArray(value)) value.forEach((item) => visit(item, field));
    if (!isObject(value)) return;
    if (field === 'matchLabels') selected.push(...Object.keys(value));
    for (const [key, item] of Object.entries(value)) visit(item, key);
  };
  visit(spec, 'spec');
  const own = { selected, mentioned };
  if (isObject(spec)) walked.set(spec, own);
  return own;
}

/** Crossplane's own annotation namespace: what Crossplane and its providers act on (external-name, paused, ...). */
const CROSSPLANE_ANNOTATION = /^([a-z0-9-]+\.)*crossplane\.io\//;

export interface MetadataSkeleton {
  namespace?: string;
  /** Label keys that dress the object: style. */
  labels?: string[];
  /** Annotation keys that dress the object: style. */
  annotations?: string[];
  /** Label keys another composed resource selects: behavior (a node group choosing subnets by zone). */
  selectedLabels?: string[];
  /** Annotation keys in Crossplane's own namespace or that another composed resource references: behavior. */
  behaviorAnnotations?: string[];
}

/**
 * The composed resource's own metadata: the namespace it sets and its label and annotation keys,
 * each on the side it belongs to. A label another composed resource selects, an annotation another
 * references (its key written in the other's body), and every `crossplane.io/` annotation (which
 * Crossplane acts on: `crossplane.io/external-name` names the cloud resource) change what happens:
 * behavior. The rest only dresses the object: style.
 */
export function metadataOf(resource: JsonObject, dependents: Dependents = { selected: new Set(), mentioned: [] }): MetadataSkeleton | undefined {
  const metadata = isObject(resource.metadata) ? resource.metadata : {};
  const out: MetadataSkeleton = {};
  if (typeof metadata.namespace === 'string') out.namespace = metadata.namespace;
  // Written whole, or as a field path's last part (`metadata.labels['team']`, `metadata.annotations.team`).
  const referenced = (key: string) => {
    const whole = new RegExp(`(^|[.\\['"])${escapeRegExp(key)}($|[\\]'"])`);
    return dependents.mentioned.some((text) => whole.test(text));
  };
  const labels = keysOf(metadata.labels).sort();
  const selected = labels.filter((key) => dependents.selected.has(key) || referenced(key));
  const styleLabels = labels.filter((key) => !selected.includes(key));
  if (styleLabels.length) out.labels = styleLabels;
  const annotations = keysOf(metadata.annotations).sort();
  const behavior = annotations.filter((key) => CROSSPLANE_ANNOTATION.test(key) || referenced(key));
  const styleAnnotations = annotations.filter((key) => !behavior.includes(key));
  if (styleAnnotations.length) out.annotations = styleAnnotations;
  if (selected.length) out.selectedLabels = selected;
  if (behavior.length) out.behaviorAnnotations = behavior;
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
