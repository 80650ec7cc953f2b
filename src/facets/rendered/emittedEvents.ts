import type { EventSkeleton } from '../../skeleton/types.js';
import type { FacetMeta } from '../meta.js';
import type { RenderedFamily } from './family.js';

/** The events the function emits, by severity and templated message. */

const EXTRACTOR = 'src/facets/rendered/emittedEvents.ts';

const META: readonly FacetMeta[] = [
  { id: 'events', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The events the function emits.', compares: 'Severity and templated message.', example: '[Normal: Waiting for {cloud} ClusterProviderConfig default]', fix: 'Emit the same events with the same wording.', extractor: EXTRACTOR },
];

/** Events as compared: `<severity>: <message>`, sorted. */
export const eventLines = (events: readonly EventSkeleton[]) => events.map((event) => `${event.severity}: ${event.message}`).sort();

export const EVENTS: RenderedFamily = { meta: META, cell: (skeleton) => [{ subject: 'events', facet: 'events', value: eventLines(skeleton.events) }] };
