import type { SecretEntry, Skeleton } from '../../skeleton/types.js';
import { kubeconfigWiring } from '../../skeleton/wiring.js';
import type { FacetMeta } from '../meta.js';
import type { RenderedFamily, RenderedValue } from './family.js';

/** What the XR's status publishes, and when. */

const EXTRACTOR = 'src/facets/rendered/status.ts';

const META: readonly FacetMeta[] = [
  { id: 'status-appears', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The step at which the XR\'s status is first published.', compares: 'The absolute step.', example: '0', fix: 'Publish status when the others do.', extractor: EXTRACTOR },
  { id: 'kubeconfig-entry', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The Kubeconfig entry of status.secrets.', compares: 'Its templated name and key.', example: '{name: {xr}-kubeconfig-{hash}, key: kubeconfig}', fix: 'Publish the entry naming the Secret a composed resource writes.', extractor: EXTRACTOR },
  { id: 'identity-entry', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'Whether status.secrets carries an identity entry beside the kubeconfig.', compares: 'true or false.', example: 'true', fix: 'Publish an identity entry when the cloud needs one.', extractor: EXTRACTOR },
  { id: 'identity-shape', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'Which fields an identity entry sets.', compares: 'Only among providers that publish one (absence is identity-entry\'s).', example: '[type,name,key]', fix: 'Set type, name and key.', extractor: EXTRACTOR },
  { id: 'fields', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The XR status fields beside secrets and cache.', compares: 'Field paths: part of the XR\'s API.', example: '[]', fix: 'Publish the same status fields.', extractor: EXTRACTOR },
  { id: 'cache', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'status.cache.storageClassName.', compares: 'The published name.', example: 'modelplane-rwx', fix: 'Publish the RWX StorageClass name.', extractor: EXTRACTOR },
];

/** Which of a status.secrets entry's fields are set, e.g. `type,name,key`. */
function entryShape(entry: SecretEntry): string {
  return (['type', 'name', 'key'] as const).filter((field) => entry[field] !== '').join(',');
}

function cell(skeleton: Skeleton): RenderedValue[] {
  const { entry: kubeconfig } = kubeconfigWiring(skeleton);
  const identities = skeleton.status.secrets.filter((entry) => entry.type !== 'Kubeconfig');
  const values: RenderedValue[] = [
    { subject: 'status', facet: 'status-appears', value: skeleton.status.appears },
    { subject: 'status', facet: 'kubeconfig-entry', value: kubeconfig ? { name: kubeconfig.name, key: kubeconfig.key } : null },
    { subject: 'status', facet: 'identity-entry', value: identities.length > 0 },
  ];
  // Identity types and Secret names are the cloud's own; what an entry carries is comparable. Only
  // providers that publish one take part: absence is identity-entry's.
  if (identities.length) values.push({ subject: 'status', facet: 'identity-shape', value: identities.map(entryShape).sort() });
  // Fields beside secrets and cache are part of the XR's API: what consumers can read.
  values.push({ subject: 'status', facet: 'fields', value: skeleton.status.fields ?? [] });
  values.push({ subject: 'status', facet: 'cache', value: skeleton.status.cache?.storageClassName ?? null });
  return values;
}

export const STATUS: RenderedFamily = { meta: META, cell };
