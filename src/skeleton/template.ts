import { isObject } from '../util/objects.js';

export interface TemplateValues {
  xr: string;
  namespace: string;
  /** Adapter `values`: name → cloud-specific string. */
  values: Record<string, string>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const HASH_SUFFIX = /-[0-9a-f]{12}(?![0-9a-z])/g;

/**
 * Replaces what makes providers incomparable (XR name, namespace, hash suffixes, cloud values) with
 * placeholders. Longer values go first so `demo-project` becomes `{project}`, not `{xr}-project`;
 * a value matches only between non-alphanumeric boundaries.
 */
export function makeTemplater({ xr, namespace, values }: TemplateValues): (text: string) => string {
  const entries: Array<[string, string]> = Object.entries(values).map(([name, value]) => [value, `{${name}}`]);
  entries.push([xr, '{xr}'], [namespace, '{namespace}']);
  const table = entries
    .filter(([value]) => value.length > 0)
    .sort(([a, aPlaceholder], [b, bPlaceholder]) => b.length - a.length || (aPlaceholder < bPlaceholder ? -1 : 1));
  const patterns = table.map(([value, placeholder]) => [new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(value)}(?![A-Za-z0-9])`, 'g'), placeholder] as const);
  return (text: string) => {
    let out = text.replace(HASH_SUFFIX, '-{hash}');
    for (const [pattern, placeholder] of patterns) out = out.replace(pattern, placeholder);
    return out;
  };
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
