import { createRequire } from 'node:module';
import { stripVTControlCharacters } from 'node:util';
import { toCanonicalYaml } from '../skeleton/canonical.js';
import type { Skeleton } from '../skeleton/types.js';
import { withoutUnknown } from '../skeleton/unknown.js';
import { isObject, stableStringify } from '../util/objects.js';
import { yamlLibrary } from '../util/yamlLibrary.js';
import type { Finding } from './findings.js';
import { findingId } from './findingId.js';

export interface SectionChange {
  /** `resources.<key>`, `status`, `requirements`, `events`, `then`, `converged`, ... */
  section: string;
  change: 'added' | 'removed' | 'changed';
  diff: string;
}

// jest-diff is needed only when a golden differs; load it then, not on every run.
const require = createRequire(import.meta.url);
const diff = (a: string, b: string, options: DiffOptions): string | null => (require('jest-diff') as typeof import('jest-diff')).diff(a, b, options);
type DiffOptions = NonNullable<Parameters<(typeof import('jest-diff'))['diff']>[2]>;

const sectionYaml = (value: unknown) => (value === undefined ? '' : yamlLibrary().stringify(value, { lineWidth: 0 }));

function sectionsOf(skeleton: Record<string, unknown>): Map<string, unknown> {
  const sections = new Map<string, unknown>();
  for (const [field, value] of Object.entries(skeleton)) {
    if (field === 'resources' && isObject(value)) {
      for (const [key, resource] of Object.entries(value)) sections.set(`resources.${key}`, resource);
    } else {
      sections.set(field, value);
    }
  }
  return sections;
}

/** The golden and the rendered skeleton compared section by section, each resource key its own section. */
export function diffSkeletons(golden: Record<string, unknown>, rendered: Record<string, unknown>): SectionChange[] {
  const before = sectionsOf(golden);
  const after = sectionsOf(rendered);
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  const changes: SectionChange[] = [];
  for (const section of names) {
    const a = before.get(section);
    const b = after.get(section);
    if (stableStringify(a) === stableStringify(b)) continue;
    const change = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    const text =
      diff(sectionYaml(a), sectionYaml(b), {
        aAnnotation: 'golden',
        bAnnotation: 'rendered',
        expand: false,
        contextLines: 2,
        omitAnnotationLines: false,
      }) ?? '';
    // jest-diff colors by default; reports decide on color themselves.
    changes.push({ section, change, diff: stripVTControlCharacters(text) });
  }
  return changes;
}

/** The id of a cell's golden-missing finding: what tells a provider that has no golden yet. */
export const missingGoldenId = (cell: string) => findingId('golden-missing', cell);

export function cellId(provider: string, scenario: string) {
  return `${provider}/${scenario}`;
}

/** A golden file read back: its skeleton, or what makes it one drift cannot compare with. */
export type CommittedGolden = { ok: true; skeleton: Skeleton } | { ok: false; problem: string };

export interface GoldenComparison {
  provider: string;
  scenario: string;
  /** The committed golden's text (line endings normalized), or undefined when there is none. */
  golden: string | undefined;
  skeleton: Skeleton;
  /** The golden file parser; called only when the text differs from the skeleton's canonical form. */
  parse: (text: string) => CommittedGolden;
}

/** Compares one cell with its golden. Returns the findings: missing, unreadable, outdated format, or changed. */
export function compareGolden({ provider, scenario, golden, skeleton, parse }: GoldenComparison): Finding[] {
  const cell = cellId(provider, scenario);
  const base = { type: 'golden' as const, provider, scenario };
  const update = `if the change is intended, run \`drift update --provider ${provider} --scenario ${scenario}\` and commit the golden`;
  if (golden === undefined) {
    return [
      {
        ...base,
        id: missingGoldenId(cell),
        class: 'behavioral',
        subject: 'golden',
        message: `no golden for ${cell}`,
        hint: `review the rendered skeleton, then run \`drift update --provider ${provider} --scenario ${scenario}\` and commit it`,
      },
    ];
  }
  if (golden === toCanonicalYaml(skeleton)) return []; // the common case: no parse needed
  const parsed = parse(golden);
  if (!parsed.ok) {
    return [{ ...base, id: findingId('golden-unreadable', cell), class: 'behavioral', subject: 'golden', message: `the golden of ${cell} is ${parsed.problem}`, hint: update }];
  }
  // What the cell could not establish (an errored ablation) is compared on neither side: its error finding says it.
  const [before, after] = [withoutUnknown(parsed.skeleton, skeleton), withoutUnknown(skeleton, skeleton)];
  const changes = diffSkeletons(before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>);
  if (changes.length === 0 && skeleton.unknown) return [];
  if (changes.length === 0) {
    return [{ ...base, id: findingId('golden-format', cell), class: 'stylistic', subject: 'golden', message: `the golden of ${cell} is not in canonical form`, hint: update }];
  }
  return changes.map((change) => ({
    ...base,
    id: findingId('golden', cell, change.section),
    class: 'behavioral',
    subject: change.section,
    message: `${change.section} ${change.change}`,
    diff: change.diff,
    hint: update,
  }));
}

/** A golden that no provider × scenario produces any more; `file` as the report names it. */
export function obsoleteFinding({ provider, scenario, file }: { provider: string; scenario: string; file: string }): Finding {
  return {
    id: findingId('golden-obsolete', `${provider}/${scenario}`),
    type: 'golden',
    class: 'behavioral',
    provider,
    scenario,
    subject: 'golden',
    message: `${file} is obsolete: no provider × scenario produces it any more`,
    hint: 'run `drift update --prune` to remove it, or restore the provider or scenario',
  };
}
