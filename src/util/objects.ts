/** Small, pure helpers over plain JSON-like data. */

export type JsonObject = { [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}


/** JSON with object keys sorted at every depth: equal data gives equal text. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** A copy with object keys sorted at every depth. Runs on every answer a function gives, so it avoids needless work. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (!isSorted(keys)) keys.sort(compareText);
  const sorted: JsonObject = {};
  for (const key of keys) sorted[key] = sortKeys(value[key]);
  return sorted;
}

function isSorted(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i += 1) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/** Splits "a.b\.c.d" into ["a", "b.c", "d"]: dots escaped with a backslash stay in the segment. */
export function splitPath(dotted: string): string[] {
  return dotted.split(/(?<!\\)\./).map((part) => part.replace(/\\\./g, '.'));
}

/** A copy of `target` with `value` at `path`; only the objects along the path are copied. */
export function withPath(target: JsonObject, path: string[], value: unknown): JsonObject {
  const [head, ...rest] = path;
  if (head === undefined) return target;
  const child = target[head];
  return { ...target, [head]: rest.length === 0 ? value : withPath(isObject(child) ? child : {}, rest, value) };
}

/** A copy of `target` without the field at `path`; only the objects along the path are copied. */
export function withoutPath(target: JsonObject, path: string[]): JsonObject {
  const [head, ...rest] = path;
  if (head === undefined || !(head in target)) return target;
  if (rest.length === 0) {
    const { [head]: _removed, ...others } = target;
    return others;
  }
  const child = target[head];
  return isObject(child) ? { ...target, [head]: withoutPath(child, rest) } : target;
}

/** A JSON merge patch (RFC 7386): objects merge recursively, null removes a field, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Merges objects recursively; arrays and scalars from `overlay` replace those in `base`. */
export function deepMerge(base: JsonObject, overlay: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(overlay)) {
    const existing = out[key];
    out[key] = isObject(existing) && isObject(value) ? deepMerge(existing, value) : value;
  }
  return out;
}

/** Code-point order: the same on every machine, unlike localeCompare. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Kubernetes-style key order: apiVersion, kind, metadata, spec, status first, the rest sorted, at every depth. */
export function k8sOrder(value: unknown): unknown {
  if (!isObject(value)) return sortKeys(value);
  const first = ['apiVersion', 'kind', 'metadata', 'spec', 'status'].filter((key) => key in value);
  const rest = Object.keys(value).filter((key) => !first.includes(key)).sort(compareText);
  return Object.fromEntries([...first, ...rest].map((key) => [key, sortKeys(value[key])]));
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
