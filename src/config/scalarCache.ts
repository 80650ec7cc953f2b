import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rememberScalarDecision, scalarDecisions } from '../util/canonicalYaml.js';
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

let file: string | undefined;
let known = 0;

/** Where decisions are kept; undefined: asked of the library in every process. loadProject sets it and reads the file. */
export function useScalarCache(folder: string | undefined): void {
  file = undefined;
  if (folder === undefined) return;
  const key = createHash('sha256').update(`${FORMAT}\n${buildStamp()}\nyaml ${yamlVersion()}\n${JSON.stringify(YAML_OPTIONS)}`).digest('hex').slice(0, 16);
  file = path.join(folder, 'documents', `scalars-${key}.json`);
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof kept === 'object' && kept !== null && !Array.isArray(kept)) {
      // A decision is one line of YAML: anything else is not one this cache wrote.
      for (const [id, text] of Object.entries(kept)) if (typeof text === 'string' && !text.includes('\n')) rememberScalarDecision(id, text);
    }
  } catch {
    // Not kept yet, or unreadable: the library decides, and keepScalarCache writes the file anew.
  }
  known = scalarDecisions().size;
}

/** Writes the decisions when this process took new ones; written beside and renamed, so a reader sees a whole file. */
export function keepScalarCache(): void {
  const decisions = scalarDecisions();
  if (file === undefined || decisions.size <= known || decisions.size > MAX_DECISIONS) return;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(decisions)));
    renameSync(temporary, file);
    known = decisions.size;
  } catch {
    // Not kept: the next process asks the library again.
  }
}
