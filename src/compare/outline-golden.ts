import { yamlLibrary } from '../util/yamlLibrary.js';
import { toCanonicalOutline } from '../outline/canonicalOutline.js';
import { OUTLINE_VERSION, type Outline } from '../outline/types.js';
import { isObject } from '../util/objects.js';
import type { Finding } from './findings.js';
import { findingId } from './findingId.js';
import { diffSkeletons, missingGoldenId } from './golden.js';

/** The name an outline golden goes by, beside the provider's skeletons: `goldens/<provider>/outline.yaml`. */
export const OUTLINE_GOLDEN = 'outline';

/** Sections as a reviewer reads them: each file its own, then idioms and the link to behaviour. */
function sections(outline: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(outline)) {
    if (field === 'files' && isObject(value)) for (const [file, module] of Object.entries(value)) out[`files.${file}`] = module;
    else out[field] = value;
  }
  return out;
}

/**
 * Compares a provider's outline with its golden, as a skeleton is: missing, unreadable, or changed
 * section by section. Style findings have no scenario; an outline golden belongs to its provider.
 */
export function compareOutlineGolden(provider: string, golden: string | undefined, outline: Outline): Finding[] {
  const base = { type: 'golden' as const, class: 'stylistic' as const, provider, subject: 'outline' };
  const cell = `${provider}/${OUTLINE_GOLDEN}`;
  const update = `if the change is intended, run \`drift update --provider ${provider}\` and commit goldens/${provider}/${OUTLINE_GOLDEN}.yaml`;
  if (golden === undefined) {
    return [{ ...base, id: missingGoldenId(cell), message: `no outline golden for ${provider}`, hint: `review the outline, then run \`drift update --provider ${provider}\` and commit it` }];
  }
  if (golden === toCanonicalOutline(outline)) return [];
  let parsed: unknown;
  try {
    parsed = yamlLibrary().parse(golden);
  } catch {
    parsed = undefined;
  }
  if (!isObject(parsed) || parsed.outline !== OUTLINE_VERSION) {
    const why = isObject(parsed) && typeof parsed.outline === 'number' ? `outline format ${parsed.outline}, drift writes ${OUTLINE_VERSION}` : 'not a drift outline';
    return [{ ...base, id: findingId('golden-unreadable', cell), message: `the outline golden of ${provider} is ${why}`, hint: update }];
  }
  const changes = diffSkeletons(sections(parsed), sections(outline as unknown as Record<string, unknown>));
  if (changes.length === 0) return [{ ...base, id: findingId('golden-format', cell), message: `the outline golden of ${provider} is not in canonical form`, hint: update }];
  return changes.map((change) => ({ ...base, id: findingId('golden', cell, change.section), subject: `outline ${change.section}`, message: `outline ${change.section} ${change.change}`, diff: change.diff, hint: update }));
}
