import type { CachePolicy } from '../cache/policy.js';
import type { CommittedGolden } from '../compare/golden.js';
import { packageFile } from '../config/paths.js';
import { readYamlFile } from '../config/yamlFile.js';
import { InputError } from '../errors.js';
import { toCanonicalYaml } from '../skeleton/canonical.js';
import { SKELETON_VERSION, type Skeleton } from '../skeleton/types.js';
import { OUTLINE_VERSION, type Outline } from '../outline/types.js';
import { isObject } from '../util/objects.js';
import { parseGoldenYaml } from './parsedText.js';

export const GOLDEN_SCHEMA = 'schemas/golden.schema.json';

/** The one way a skeleton becomes golden text: canonical YAML, same skeleton, same bytes. */
export function serializeGolden(skeleton: Skeleton): string {
  return toCanonicalYaml(skeleton);
}

/** Golden text as drift reads it: a checkout that turned `\n` into `\r\n` changes nothing. */
export function normalizeGolden(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/**
 * The one parser of golden files: YAML checked against `schemas/golden.schema.json`, a golden of
 * another skeleton format named as such (not as a list of schema errors). `file` is the name a
 * problem carries, as `file:line:col`. `cache`: the run's cache policy, when parsed goldens may be kept.
 */
export function parseGolden(text: string, file: string, cache?: CachePolicy): CommittedGolden {
  const normalized = normalizeGolden(text);
  let skeleton: Skeleton;
  try {
    // The parsed-document cache answers a committed golden without parsing it: its version is read
    // from what it holds, and the text is parsed for it only when it is no skeleton of this drift.
    skeleton = readYamlFile<Skeleton>(file, packageFile(GOLDEN_SCHEMA), { text: normalized, cache });
  } catch (error) {
    const version = versionOf(normalized, cache);
    if (version !== undefined && version !== SKELETON_VERSION) return formatProblem(version);
    if (!(error instanceof InputError)) throw error;
    return { ok: false, problem: `not a drift skeleton: ${error.message}` };
  }
  return skeleton.skeleton === SKELETON_VERSION ? { ok: true, skeleton } : formatProblem(skeleton.skeleton);
}

const formatProblem = (version: number): CommittedGolden => ({ ok: false, problem: `skeleton format ${version}, drift writes ${SKELETON_VERSION}` });

function versionOf(text: string, cache: CachePolicy | undefined): number | undefined {
  const parsed = parseGoldenYaml(text, cache);
  return isObject(parsed) && typeof parsed.skeleton === 'number' ? parsed.skeleton : undefined;
}

/** A committed outline golden (`<provider>/outline.yaml`), when it is one this drift can read: a stand-in for the provider's source. */
export function parseOutlineGolden(text: string | undefined, cache?: CachePolicy): Outline | undefined {
  if (text === undefined) return undefined;
  const parsed = parseGoldenYaml(text, cache);
  return isObject(parsed) && parsed.outline === OUTLINE_VERSION ? (parsed as unknown as Outline) : undefined;
}
