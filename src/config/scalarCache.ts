import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rememberScalarsFrom, scalarDecisions } from '../util/canonicalYaml.js';
import { YAML_OPTIONS } from '../util/yaml.js';
import { buildStamp, yamlVersion } from './documentCache.js';

/**
 * How the yaml library writes each scalar drift has written (util/canonicalYaml.ts), kept in drift's
 * cache folder beside the parsed documents: a fresh process otherwise loads the library and asks it
 * about every distinct string of every skeleton and outline it compares, about a tenth of a
 * `drift diff -p`. One file per drift build, yaml library and options, so a decision is read only by
 * the code that would take it again.
 */

const FORMAT = 'drift-scalars/1';
/** Past this many decisions the file is not rewritten: it only grows with the distinct strings of the goldens. */
const MAX_DECISIONS = 100_000;
/** Files of other builds kept beside the one written (a checkout switching between builds), the newest first. */
const KEEP_OTHER_BUILDS = 3;

let file: string | undefined;
/** How many decisions the library had taken when the file was last written (or when this process began). */
let keptAsked = 0;

/** The decisions in `at`: none when it is missing or unreadable, and none that is not one line of YAML (not one this cache wrote). */
function readDecisions(at: string): Array<[string, string]> {
  try {
    const kept = JSON.parse(readFileSync(at, 'utf8')) as unknown;
    if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return [];
    return Object.entries(kept).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !entry[1].includes('\n'));
  } catch {
    return [];
  }
}

/** Where decisions are kept; undefined: asked of the library in every process. loadProject sets it; the file is read only when a scalar is first needed. */
export function useScalarCache(folder: string | undefined): void {
  file = undefined;
  rememberScalarsFrom(undefined);
  if (folder === undefined) return;
  const key = createHash('sha256').update(`${FORMAT}\n${buildStamp()}\nyaml ${yamlVersion()}\n${JSON.stringify(YAML_OPTIONS)}`).digest('hex').slice(0, 16);
  const at = path.join(folder, 'documents', `scalars-${key}.json`);
  file = at;
  rememberScalarsFrom(() => readDecisions(at));
}

/** Writes the decisions when the library took new ones in this process; written beside and renamed, so a reader sees a whole file. */
export function keepScalarCache(): void {
  const { decisions, asked } = scalarDecisions();
  if (file === undefined || asked === keptAsked || decisions.size > MAX_DECISIONS) return;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(decisions)));
    renameSync(temporary, file);
    keptAsked = asked;
    pruneOtherBuilds(file);
  } catch {
    // Not kept: the next process asks the library again.
  }
}

/** Every build writes a file of its own: the oldest of the others go, so rebuilding does not fill the folder. */
function pruneOtherBuilds(written: string): void {
  const folder = path.dirname(written);
  const others = readdirSync(folder)
    .filter((name) => name.startsWith('scalars-') && name.endsWith('.json') && name !== path.basename(written))
    .map((name) => ({ name, mtime: statSync(path.join(folder, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of others.slice(KEEP_OTHER_BUILDS)) rmSync(path.join(folder, name), { force: true });
}
