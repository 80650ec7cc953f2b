import { yamlLibrary } from '../util/yamlLibrary.js';

/**
 * Golden YAML parsed once per content in a process: a test process or the MCP server runs drift many
 * times over the same committed goldens, and each run parsed every outline golden of a provider it
 * did not render again (the most parsing a warm run did). Keyed by the text itself, so an edited
 * golden is a new entry. Values are frozen, deeply: every reader shares one, and a reader that
 * changed it would throw rather than change what the next run reads.
 */

/** Goldens a project has (five providers' outlines and a few stale ones): more than a run reads, few enough to keep. */
const KEEP = 64;
const parsed = new Map<string, { value: unknown } | { failed: true }>();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** The YAML value of `text`, frozen; undefined when it is not YAML. */
export function parseGoldenYaml(text: string): unknown {
  let entry = parsed.get(text);
  if (entry === undefined) {
    try {
      entry = { value: deepFreeze(yamlLibrary().parse(text) as unknown) };
    } catch {
      entry = { failed: true };
    }
    // The oldest entry goes first: a long-lived process holds only the goldens it keeps reading.
    if (parsed.size >= KEEP) parsed.delete(parsed.keys().next().value!);
    parsed.set(text, entry);
  }
  return 'value' in entry ? entry.value : undefined;
}
