import { viaDocument } from '../util/yaml.js';
import type { Outline } from './types.js';

/**
 * The outline as canonical YAML, as a golden holds it: fields in the order the outline is built in,
 * maps sorted where they are built, short scalar lists on one line. Same outline, same bytes.
 */
export function toCanonicalOutline(outline: Outline): string {
  return viaDocument(outline);
}
