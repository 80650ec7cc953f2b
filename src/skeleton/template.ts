import { escapeRegExp, isObject } from '../util/objects.js';

export interface TemplateValues {
  xr: string;
  namespace: string;
  /** Adapter `values`: name → cloud-specific string. */
  values: Record<string, string>;
  /** Tokens the function derived from the XR's identity (src/skeleton/derivedTokens.ts), each templated to `{hash}`. */
  derived?: readonly string[];
}

const HASH_SUFFIX = /-[0-9a-f]{12}(?![0-9a-z])/;

/**
 * Replaces what makes providers incomparable (XR name, namespace, hash suffixes, cloud values) with
 * placeholders. Longer values go first so `demo-project` becomes `{project}`, not `{xr}-project`;
 * a value matches only between non-alphanumeric boundaries.
 */
export function makeTemplater({ xr, namespace, values, derived = [] }: TemplateValues): (text: string) => string {
  const entries: Array<[string, string]> = Object.entries(values).map(([name, value]) => [value, `{${name}}`]);
  entries.push([xr, '{xr}'], [namespace, '{namespace}']);
  // A derived token that is also a known value keeps the value's name: that says more than {hash}.
  const known = new Set(entries.map(([value]) => value));
  entries.push(...derived.filter((token) => !known.has(token)).map((token): [string, string] => [token, '{hash}']));
  const table = new Map(
    entries
      .filter(([value]) => value.length > 0)
      .sort(([a, aPlaceholder], [b, bPlaceholder]) => b.length - a.length || (aPlaceholder < bPlaceholder ? -1 : 1) || (a < b ? -1 : 1)),
  );
  // One pass over the text: a placeholder once inserted is never matched again.
  const alternatives = [...table.keys()].map(escapeRegExp).join('|');
  const pattern = new RegExp(`${HASH_SUFFIX.source}${alternatives ? `|(?<![A-Za-z0-9])(?:${alternatives})(?![A-Za-z0-9])` : ''}`, 'g');
  return (text: string) => text.replace(pattern, (match) => table.get(match) ?? '-{hash}');
}

/** Applies a templater to every string value (not keys: keys are composed-resource keys and field names). */
export function templateStrings<T>(value: T, template: (text: string) => string): T {
  if (typeof value === 'string') return template(value) as T;
  if (Array.isArray(value)) return value.map((item) => templateStrings(item, template)) as T;
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, templateStrings(item, template)])) as T;
  }
  return value;
}
