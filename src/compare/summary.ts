/**
 * A value in words, for messages and hints: structural, bounded, never cut in the middle of a token.
 * Lists drop whole items ("a, b and 3 more"), objects become `field: value` pairs, nested objects
 * beyond the first level are named by their size. Pure.
 */

const MAX_ITEMS = 6;
const MAX_FIELDS = 5;

function inWords(value: unknown, depth: number): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    if (depth > 1) return `${value.length} item${value.length === 1 ? '' : 's'}`;
    const shown = value.slice(0, MAX_ITEMS).map((item) => inWords(item, depth + 1));
    const rest = value.length - shown.length;
    return `[${shown.join(', ')}${rest ? ` and ${rest} more` : ''}]`;
  }
  const fields = Object.entries(value as Record<string, unknown>);
  if (fields.length === 0) return '{}';
  if (depth > 1) return `{${fields.length} field${fields.length === 1 ? '' : 's'}}`;
  const shown = fields.slice(0, MAX_FIELDS).map(([field, item]) => `${field}: ${inWords(item, depth + 1)}`);
  const rest = fields.length - shown.length;
  return `{${shown.join(', ')}${rest ? ` and ${rest} more field${rest === 1 ? '' : 's'}` : ''}}`;
}

/** `value` summarised for a reader: `[Normal: Waiting for …]`, `none`, `{dropped: none, statusKept: true}`. */
export function summarise(value: unknown): string {
  return inWords(value, 0);
}

/**
 * A step relative to the cluster's in words (`appears`, `ready` of every role but the cluster's own):
 * `with the cluster`, `2 steps after the cluster`, `a step before the cluster`; `null` is `never`.
 */
export function relativeStep(step: unknown): string {
  if (step === null) return 'never';
  if (typeof step !== 'number') return summarise(step);
  if (step === 0) return 'with the cluster';
  const count = Math.abs(step) === 1 ? 'a step' : `${Math.abs(step)} steps`;
  return `${count} ${step < 0 ? 'before' : 'after'} the cluster`;
}

/** A reason as a clause of a longer sentence: its own closing period dropped, so `because ${reason}.` ends once. */
export const asClause = (text: string) => text.trim().replace(/\.+$/, '');

/** A facet's value in words: steps relative to the cluster for `appears` and `ready` of other roles. */
export function facetValueInWords(subject: string, facet: string, value: unknown): string {
  if ((facet === 'appears' || facet === 'ready') && subject !== 'cluster') return relativeStep(value);
  if ((facet === 'appears' || facet === 'ready') && value === null) return 'never';
  if ((facet === 'appears' || facet === 'ready') && typeof value === 'number') return `step ${value}`;
  // A text that ends a sentence of its own ("Waiting for NodeGroup.") is quoted, so the
  // sentence around it goes on without a doubled or run-on stop.
  if (typeof value === 'string' && /[.;:,!?]$/.test(value)) return JSON.stringify(value);
  return summarise(value);
}
