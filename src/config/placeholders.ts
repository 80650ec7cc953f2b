import { isObject } from '../util/objects.js';
import type { Locator } from './yamlFile.js';

/** A value `drift new-provider` drafted for the author to fill in (`TODO`, `TODO.m.upbound.io/v1beta1`). */
const PLACEHOLDER = /\bTODO\b/;

/**
 * The adapter's values that still hold a draft's placeholder, each with its line: until they are filled
 * in, what diff and expect report may be the adapter's artefacts rather than the function's behavior.
 * Comments are not values: the draft's header keeps saying "fill in every TODO" after they are.
 */
export function placeholdersIn(raw: unknown, locate: Locator): Array<{ path: string; line: number }> {
  const out: Array<{ path: string; line: number }> = [];
  const visit = (value: unknown, at: Array<string | number>) => {
    if (typeof value === 'string' && PLACEHOLDER.test(value)) out.push({ path: at.join('.'), line: locate(at).line });
    else if (Array.isArray(value)) value.forEach((item, index) => visit(item, [...at, index]));
    else if (isObject(value)) for (const [key, item] of Object.entries(value)) visit(item, [...at, key]);
  };
  visit(raw, []);
  return out.sort((a, b) => a.line - b.line);
}
