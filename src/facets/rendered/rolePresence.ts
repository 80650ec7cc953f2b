import { presenceOf } from '../../skeleton/presence.js';
import type { FacetMeta } from '../meta.js';
import type { RenderedFamily, RoleContext } from './family.js';

/** Whether a provider plays each role any provider plays: absence is a value here, and only here. */

const EXTRACTOR = 'src/facets/rendered/rolePresence.ts';

const META: readonly FacetMeta[] = [
  { id: 'presence', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'Whether a provider plays a contract role, and how.', compares: '`composed` (a resource of its own), `inline` (inside another composed resource, e.g. a system pool in the cluster) or `absent`; absence is a value only here.', example: 'composed', fix: 'Compose the role as the others do, or accept the difference with the cloud reason.', extractor: EXTRACTOR },
];

export const PRESENCE: RenderedFamily = { meta: META, role: ({ skeleton, role }: RoleContext) => [{ subject: role, facet: 'presence', value: presenceOf(skeleton, role) }] };
