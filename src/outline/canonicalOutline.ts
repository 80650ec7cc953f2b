import { toCanonicalText } from '../util/canonicalYaml.js';
import type { Outline } from './types.js';
import { MemoWeakMap } from '../util/memoMap.js';

/** Outlines already written, by identity: an outline from the cache comes with the text it was written as. */
const written = new MemoWeakMap<Outline, string>();

/**
 * The outline as canonical YAML, as a golden holds it: fields in the order the outline is built in,
 * maps sorted where they are built, short scalar lists on one line. Same outline, same bytes.
 */
export function toCanonicalOutline(outline: Outline): string {
  let text = written.get(outline);
  if (text === undefined) {
    text = toCanonicalText(outline);
    written.set(outline, text);
  }
  return text;
}

/** Gives an outline read from the cache the text it was written as when it was kept (the same bytes toCanonicalOutline would write). */
export function rememberCanonicalOutline(outline: Outline, text: string): void {
  written.set(outline, text);
}
