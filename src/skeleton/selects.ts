import { isObject, type JsonObject } from '../util/objects.js';

/**
 * Which composed resources a resource selects or references: wiring, as a Secret read is. Crossplane
 * resolves a reference field (`clusterIdSelector`, `networkRef`) to one composed resource of the XR:
 * - `<field>Selector: {matchControllerRef: true, matchLabels?}`: a resource of the kind the field names
 *   (`clusterIdSelector`, `kubernetesClusterIdSelector` → a `Cluster`/`KubernetesCluster`, the field's
 *   stem ending with the kind), among the same controller's, with those labels. A field naming no composed
 *   kind (`parentIdSelector`) resolves to the one other kind composed from the same API group (a Nebius
 *   NodeGroup's parent, the mk8s Cluster), when there is exactly one;
 * - `<field>Selector: {matchLabels}` without the controller ref: every composed resource carrying those labels;
 * - `<field>Ref: {name}` / `<field>Refs: [{name}]`: the composed resource of that `metadata.name`.
 * The ProviderConfig and Secret references (`providerConfigRef`, `writeConnectionSecretToRef`, `secretRef`)
 * are not wiring between composed resources: they are compared on their own. Pure: bodies in, keys out.
 */

/** References that name no composed resource of the XR. */
const NOT_WIRING = new Set(['providerConfigRef', 'writeConnectionSecretToRef', 'secretRef', 'publishConnectionDetailsTo']);

const groupOf = (body: JsonObject) => String(body.apiVersion ?? '').split('/')[0]!;

/** `kubernetesClusterIdSelector` → `kubernetescluster`: the field without its suffix and the id it resolves. */
function stemOf(field: string): string {
  return field
    .replace(/(Selector|Refs?)$/, '')
    .replace(/(Id|ID|Ids|IDs|Name|Names|Arn|Arns)$/, '')
    .toLowerCase();
}

function labelsOf(body: JsonObject): Record<string, unknown> {
  const metadata = isObject(body.metadata) ? body.metadata : {};
  return isObject(metadata.labels) ? metadata.labels : {};
}

const nameOf = (body: JsonObject) => (isObject(body.metadata) && typeof body.metadata.name === 'string' ? body.metadata.name : undefined);

/** The keys `key`'s body selects or references among `bodies` (the other composed resources), sorted. */
export function selectsOf(key: string, bodies: Readonly<Record<string, JsonObject>>): string[] | undefined {
  const body = bodies[key]!;
  const others = Object.entries(bodies).filter(([other]) => other !== key);
  const found = new Set<string>();
  const matching = (labels: Record<string, unknown>) => (other: JsonObject) => Object.entries(labels).every(([label, value]) => labelsOf(other)[label] === value);
  const byField = (field: string): Array<[string, JsonObject]> => {
    const stem = stemOf(field);
    const named = others.filter(([, other]) => {
      const kind = String(other.kind ?? '').toLowerCase();
      return kind !== '' && stem.endsWith(kind);
    });
    // The most specific kind the field names: `subnetworkSelector` is a Subnetwork's, not a Network's.
    const longest = Math.max(0, ...named.map(([, other]) => String(other.kind).length));
    if (named.length) return named.filter(([, other]) => String(other.kind).length === longest);
    // A field that names no kind: the one other kind of the same API group.
    const sameGroup = others.filter(([, other]) => groupOf(other) === groupOf(body) && other.kind !== body.kind);
    return new Set(sameGroup.map(([, other]) => other.kind)).size === 1 ? sameGroup : [];
  };
  const visit = (value: unknown, field: string) => {
    if (Array.isArray(value)) {
      value.forEach((item) => visit(item, field));
      return;
    }
    if (!isObject(value)) return;
    if (field.endsWith('Selector') && !NOT_WIRING.has(field)) {
      const labels = isObject(value.matchLabels) ? value.matchLabels : {};
      const candidates = value.matchControllerRef === true ? byField(field) : Object.keys(labels).length ? others : [];
      for (const [other, otherBody] of candidates) if (matching(labels)(otherBody)) found.add(other);
      return;
    }
    if (/Refs?$/.test(field) && !NOT_WIRING.has(field) && typeof value.name === 'string') {
      for (const [other, otherBody] of others) if (nameOf(otherBody) === value.name) found.add(other);
      return;
    }
    for (const [name, item] of Object.entries(value)) visit(item, name);
  };
  visit(body.spec, 'spec');
  return found.size ? [...found].sort() : undefined;
}
