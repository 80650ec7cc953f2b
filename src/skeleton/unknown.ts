import type { Skeleton } from './types.js';

/** The resource field each unknown facet is read from. */
const FIELD = { 'gated-on': 'gatedOn', intent: 'intent' } as const;

/**
 * A skeleton as it can be compared when `rendered` could not establish some facets (see
 * Skeleton.unknown): those fields dropped from every resource, and the marker itself. Applied to
 * the golden and the rendered skeleton alike, so an errored ablation reads as neither a lost gate
 * nor a changed golden; whatever else changed still shows.
 */
export function withoutUnknown(skeleton: Skeleton, rendered: Skeleton): Skeleton {
  const unknown = rendered.unknown ?? [];
  if (unknown.length === 0 && skeleton.unknown === undefined) return skeleton;
  const fields = unknown.map((facet) => FIELD[facet]);
  const { unknown: _marker, ...rest } = skeleton;
  const resources = Object.fromEntries(
    Object.entries(skeleton.resources ?? {}).map(([key, resource]) => [key, Object.fromEntries(Object.entries(resource).filter(([field]) => !(fields as string[]).includes(field)))]),
  ) as Skeleton['resources'];
  return { ...rest, resources };
}
