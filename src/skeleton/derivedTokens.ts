import { escapeRegExp, isObject } from '../util/objects.js';

/** The two XR names a function was rendered under, the scenario's and a twin's. */
export interface RenderedNames {
  base: string;
  twin: string;
}

// A derived suffix is a run of letters and digits; shorter runs (a zone letter, a count) are too
// common in literal text to template wherever they occur.
const TOKEN = /^[A-Za-z0-9]{3,}$/;
const SEPARATORS = /([^A-Za-z0-9]+)/;

/**
 * The tokens a function derived from the XR's identity, beside the name itself: two answers to the
 * same request under different XR names (and uids) are walked side by side, and wherever a string
 * still differs once each name is replaced by a placeholder, the tokens that differ are derived
 * (`demo-3f9a1-kubeconfig` against `twin-c07e2-kubeconfig`: `3f9a1`). What stays the same under
 * both names is literal, however hash-like it looks (`subnet-a`, `abcde`). Sorted, so the
 * skeletons templated with them are the same on every run.
 */
export function derivedTokens(base: unknown, twin: unknown, names: RenderedNames): string[] {
  const found = new Set<string>();
  const placeholder = (name: string) => new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(name)}(?![A-Za-z0-9])`, 'g');
  const [baseName, twinName] = [placeholder(names.base), placeholder(names.twin)];
  const walk = (a: unknown, b: unknown): void => {
    if (typeof a === 'string' && typeof b === 'string') {
      for (const token of differingTokens(a.replace(baseName, '{xr}'), b.replace(twinName, '{xr}'))) found.add(token);
    } else if (Array.isArray(a) && Array.isArray(b)) {
      a.forEach((item, index) => walk(item, b[index]));
    } else if (isObject(a) && isObject(b)) {
      for (const key of Object.keys(a)) if (key in b) walk(a[key], b[key]);
    }
  };
  walk(base, twin);
  return [...found].sort();
}

/** The tokens of `a` that differ from `b`'s in the same place; none when the two do not line up. */
function differingTokens(a: string, b: string): string[] {
  if (a === b) return [];
  const [left, right] = [a.split(SEPARATORS), b.split(SEPARATORS)];
  if (left.length !== right.length) return [];
  // Odd indexes are separators: a string whose punctuation moved is not one name with another suffix.
  if (left.some((part, index) => index % 2 === 1 && part !== right[index])) return [];
  return left.filter((part, index) => index % 2 === 0 && part !== right[index] && TOKEN.test(part));
}
