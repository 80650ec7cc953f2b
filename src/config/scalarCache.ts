import { rememberScalarsFrom, scalarDecisions } from '../util/canonicalYaml.js';
import { speedLayers } from '../util/speedLayers.js';
import { YAML_OPTIONS } from '../util/yaml.js';
import { documentKey, pruneCachedDocuments, readCachedDocument, writeCachedDocument, yamlVersion } from './documentCache.js';

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

/** This build's entry, or undefined when documents are not kept. Asked only once YAML is written: a run that writes none reads nothing. */
function entryKey(): string | undefined {
  const digest = documentKey('', `drift-scalars/1\nyaml ${yamlVersion()}\n${JSON.stringify(YAML_OPTIONS)}`);
  return digest === undefined ? undefined : `${PREFIX}${digest.slice(0, 16)}`;
}

/** The kept decisions: none when there are none, and none that is not one line of YAML (not one this cache wrote). */
function keptDecisions(): Array<[string, string]> {
  const key = entryKey();
  const kept = key === undefined ? undefined : readCachedDocument(key);
  if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return [];
  return Object.entries(kept).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !entry[1].includes('\n'));
}

/** Decisions come from the cache from now on (loadProject, after it set the document cache): read at the first scalar this process has not decided. */
export function useScalarCache(): void {
  if (!speedLayers().scalarCache) return;
  rememberScalarsFrom(keptDecisions);
}

/** Writes the decisions when the library took new ones in this process. */
export function keepScalarCache(): void {
  if (!speedLayers().scalarCache) return;
  const { decisions, asked } = scalarDecisions();
  if (asked === keptAsked || decisions.size > MAX_DECISIONS) return;
  const key = entryKey();
  if (key === undefined) return;
  writeCachedDocument(key, Object.fromEntries(decisions));
  keptAsked = asked;
  pruneCachedDocuments(PREFIX, key, KEEP_OTHER_BUILDS);
}
