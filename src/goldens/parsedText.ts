import type { CachePolicy } from '../cache/policy.js';
import { documentCache, yamlVersion } from '../config/documentCache.js';
import { yamlLibrary } from '../util/yamlLibrary.js';
import { MemoMap } from '../util/memoMap.js';

/**
 * Golden YAML parsed once per content in a process: a test process or the MCP server runs drift many
 * times over the same committed goldens, and each run parsed every outline golden of a provider it
 * did not render again (the most parsing a warm run did). Keyed by the text itself, so an edited
 * golden is a new entry. Values are frozen, deeply: every reader shares one, and a reader that
 * changed it would throw rather than change what the next run reads.
 *
 * Across processes, the parsed value is kept with the parsed configuration documents
 * (config/documentCache.ts), by the hash of the text, drift's build and the yaml library's version:
 * `drift diff -p NAME`, the newcomer's loop, reads every other provider's outline golden as a stand-in,
 * and parsing them cost a fresh process about 20 ms each, a number that grows with every provider.
 */

/** Goldens a project has (five providers' outlines and a few stale ones): more than a run reads, few enough to keep. */
const KEEP = 64;
const parsed = new MemoMap<string, { value: unknown } | { failed: true }>();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** The YAML value of `text`, frozen; undefined when it is not YAML. Kept across processes under `cache`, when given and on. */
export function parseGoldenYaml(text: string, cache?: CachePolicy): unknown {
  let entry = parsed.get(text);
  if (entry === undefined) {
    entry = parsedOnce(text, cache);
    // The oldest entry goes first: a long-lived process holds only the goldens it keeps reading.
    if (parsed.size >= KEEP) parsed.delete(parsed.keys().next().value!);
    parsed.set(text, entry);
  }
  return 'value' in entry ? entry.value : undefined;
}

/** What a parsed golden depends on beyond its text and drift's build (which every document key holds). */
const goldenIdentity = (): string => `golden-yaml\nyaml ${yamlVersion()}`;

/** The text parsed, or its value from the document cache; a text that is not YAML is never kept. */
function parsedOnce(text: string, cache: CachePolicy | undefined): { value: unknown } | { failed: true } {
  const documents = documentCache(cache);
  const key = documents?.key(text, goldenIdentity());
  const kept = key === undefined ? undefined : documents!.read(key);
  if (kept !== undefined) return { value: deepFreeze(kept) };
  let value: unknown;
  try {
    value = yamlLibrary().parse(text) as unknown;
  } catch {
    return { failed: true };
  }
  if (key !== undefined) documents!.write(key, value);
  return { value: deepFreeze(value) };
}
