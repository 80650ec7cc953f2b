import { toCanonicalText } from '../util/canonicalYaml.js';
import type { Skeleton } from './types.js';

/**
 * The skeleton as canonical YAML: the field order the skeleton is built in, short scalar lists and
 * small scalar maps on one line, no line wrapping. Same skeleton, same bytes.
 *
 * Written directly, not through a yaml Document (util/canonicalYaml.ts).
 */
export function toCanonicalYaml(skeleton: Skeleton): string {
  return toCanonicalText(skeleton);
}
