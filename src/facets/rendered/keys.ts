import { keyPattern } from '../../roles/catalog.js';
import type { FacetMeta } from '../meta.js';
import type { RenderedFamily, RoleContext } from './family.js';

/** How a role's keys are named (style), and how many resources play it (behavior). */

const EXTRACTOR = 'src/facets/rendered/keys.ts';

const META: readonly FacetMeta[] = [
  { id: 'key-pattern', class: 'stylistic', source: 'skeleton', scope: 'role', description: 'The composition-resource-name keys a role is composed under.', compares: 'Keys with pool names abstracted (`nodepool-{pool}`); of a role composed as several resources beside its pools, the stem their keys share (`subnet` of `subnet-a`, `subnet-b`: how many is `instances`); inline pools take no part.', example: '[nodepool-{pool}]', fix: 'Rename the key to the convention (a renamed key deletes and recreates the resource: migrate on purpose).', extractor: EXTRACTOR },
  { id: 'instances', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'How many composed resources play the role, for each pool in the pool roles.', compares: 'The number of distinct key patterns (pools abstracted) of the role\'s resources: one regional subnet, or one per zone.', example: '1', fix: 'Compose as many resources for the role as the others, or accept the difference with the cloud reason.', extractor: EXTRACTOR },
];

/** Separators inside a key: where a stem ends and a per-resource suffix begins. */
const KEY_SEPARATORS = ['-', '_', '.'];

/**
 * How a role's keys are named: pools abstracted (keyPattern), and a role composed as several
 * resources beside its pools (EKS's `subnet-a` and `subnet-b`, one per zone) named by the stem they
 * share before their suffixes. How many resources play a role is behaviour (`instances`); only the
 * naming is style, so a cloud that needs two subnets where the others need one names them alike.
 * Keys with no common stem keep their patterns: `np-{pool}` beside `nodepool-{pool}` still differ.
 */
function keyNaming(patterns: readonly string[]): string[] {
  if (patterns.length < 2) return [...patterns];
  let shared = patterns[0]!;
  for (const pattern of patterns) while (!pattern.startsWith(shared)) shared = shared.slice(0, -1);
  // The stem ends at the last separator every key shares: `subnet-` of `subnet-a`, `subnet-b`.
  const cut = Math.max(...KEY_SEPARATORS.map((separator) => shared.lastIndexOf(separator)));
  return cut > 0 && patterns.every((pattern) => pattern.length > cut + 1) ? [shared.slice(0, cut)] : [...patterns];
}

function role({ role, composed, pools }: RoleContext) {
  if (!composed) return [];
  const patterns = [...new Set(composed.keys.map(([key]) => keyPattern(key, pools)))].sort();
  return [
    { subject: role, facet: 'key-pattern', value: keyNaming(patterns) },
    { subject: role, facet: 'instances', value: patterns.length },
  ];
}

export const KEYS: RenderedFamily = { meta: META, role };
