import { toCanonicalText } from '../util/canonicalYaml.js';
import type { Skeleton } from './types.js';
import { MemoWeakMap } from '../util/memoMap.js';

/**
 * The skeleton as canonical YAML: the field order the skeleton is built in, short scalar lists and
 * small scalar maps on one line, no line wrapping. Same skeleton, same bytes.
 *
 * Written directly, not through a yaml Document (util/canonicalYaml.ts).
 */
export function toCanonicalYaml(skeleton: Skeleton): string {
  let text = written.get(skeleton);
  if (text === undefined) {
    text = toCanonicalText(skeleton);
    written.set(skeleton, text);
  }
  return text;
}

/** Skeletons already written, by identity: one from the cell cache comes with the text it was written as. */
const written = new MemoWeakMap<Skeleton, string>();

/** Gives a skeleton read from the cache the text it was written as when it was kept (the bytes toCanonicalYaml writes). */
export function rememberCanonicalYaml(skeleton: Skeleton, text: string): void {
  written.set(skeleton, text);
}
