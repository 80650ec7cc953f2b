import { rememberScalars, scalarDecisions } from '../util/canonicalYaml.js';
import { speedLayers } from '../util/speedLayers.js';
import { YAML_OPTIONS } from '../util/yaml.js';
import type { CachePolicy } from '../cache/policy.js';
import { documentCache, type DocumentCache, yamlVersion } from './documentCache.js';

/**
 * How the yaml library writes each scalar drift has written (util/canonicalYaml.ts), kept as one
 * entry of the parsed-document cache (documentCache.ts): a fresh process otherwise loads the library
 * and asks it about every distinct string of every skeleton and outline it compares, about a tenth of
 * a `drift diff -p`. One entry per drift build, yaml library and options, so a decision is read only
 * by the code that would take it again.
 */

const PREFIX = 'scalars-';
/** Past this many decisions the entry is not rewritten: it only grows with the distinct strings of the goldens. */
const MAX_DECISIONS = 100_000;
/** Entries of other builds kept beside this build's (a checkout switching between builds), the newest first. */
const KEEP_OTHER_BUILDS = 3;

/** How many decisions the library had taken when the entry was last written (or when this process began). */
let keptAsked = 0;

/** This build's entry. */
const entryKey = (documents: DocumentCache): string => `${PREFIX}${documents.key('', `drift-scalars/1\nyaml ${yamlVersion()}\n${JSON.stringify(YAML_OPTIONS)}`).slice(0, 16)}`;

/** The kept decisions: none when there are none, and none that is not one line of YAML (not one this cache wrote). */
function keptDecisions(documents: DocumentCache): Array<[string, string]> {
  const kept = documents.read(entryKey(documents));
  if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return [];
  return Object.entries(kept).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !entry[1].includes('\n'));
}

/**
 * The decisions kept under `cache` (loadProject, with the run's policy), read into the writer's memo
 * at once: one entry of about 50 KB, a millisecond, and no cache folder left behind in module state.
 * Caches off: none are read.
 */
export function useScalarCache(cache: CachePolicy | undefined): void {
  if (!speedLayers().scalarCache) return;
  const documents = documentCache(cache);
  if (documents) rememberScalars(keptDecisions(documents));
}

/** Writes the decisions under `cache` when the library took new ones in this process. */
export function keepScalarCache(cache: CachePolicy | undefined): void {
  if (!speedLayers().scalarCache) return;
  const { decisions, asked } = scalarDecisions();
  if (asked === keptAsked || decisions.size > MAX_DECISIONS) return;
  const documents = documentCache(cache);
  if (documents === undefined) return;
  const key = entryKey(documents);
  documents.write(key, Object.fromEntries(decisions));
  keptAsked = asked;
  documents.prune(PREFIX, key, KEEP_OTHER_BUILDS);
}
