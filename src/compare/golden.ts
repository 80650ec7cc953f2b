import { createRequire } from 'node:module';
import { stripVTControlCharacters } from 'node:util';
import { toCanonicalYaml } from '../skeleton/canonical.js';
import { SKELETON_VERSION, type Skeleton } from '../skeleton/types.js';
import { isObject, stableStringify } from '../util/objects.js';
import { LineCounter, parseDocument, stringify } from 'yaml';
import type { Finding } from './findings.js';

export interface GoldenComparison {
  provider: string;
  scenario: string;
  /** The committed golden's text, or undefined when there is none. */
  golden: string | undefined;
  skeleton: Skeleton;
}

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

const sectionYaml = (value: unknown) => (value === undefined ? '' : stringify(value, { lineWidth: 0 }));

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

function cellId(provider: string, scenario: string) {
  return `${provider}/${scenario}`;
}

/** A golden's data, or where and why it does not parse: a hand-edited golden may be broken YAML. */
function readGolden(text: string): { parsed: unknown; problem?: string } {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const error = document.errors[0];
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    return { parsed: undefined, problem: `not valid YAML at line ${line}, column ${col}: ${error.message.split('\n')[0]}` };
  }
  try {
    return { parsed: document.toJS({ maxAliasCount: 100 }) };
  } catch (thrown) {
    return { parsed: undefined, problem: `not readable: ${(thrown as Error).message}` };
  }
}

/** Compares one cell with its golden. Returns the findings: missing, unreadable, outdated format, or changed. */
export function compareGolden({ provider, scenario, golden, skeleton }: GoldenComparison): Finding[] {
  const cell = cellId(provider, scenario);
  const base = { type: 'golden' as const, provider, scenario };
  const update = `if the change is intended, run \`drift update --provider ${provider} --scenario ${scenario}\` and commit the golden`;
  if (golden === undefined) {
    return [
      {
        ...base,
        id: `golden-missing:${cell}`,
        class: 'behavioral',
        subject: 'golden',
        message: `no golden for ${cell}`,
        hint: `review the rendered skeleton, then run \`drift update --provider ${provider} --scenario ${scenario}\` and commit it`,
      },
    ];
  }
  if (golden === toCanonicalYaml(skeleton)) return []; // the common case: no parse needed
  const { parsed, problem } = readGolden(golden);
  if (!isObject(parsed) || parsed.skeleton !== SKELETON_VERSION) {
    const why = problem ?? (isObject(parsed) && typeof parsed.skeleton === 'number' ? `skeleton format ${parsed.skeleton}, drift writes ${SKELETON_VERSION}` : 'not a drift skeleton');
    return [{ ...base, id: `golden-unreadable:${cell}`, class: 'behavioral', subject: 'golden', message: `the golden of ${cell} is ${why}`, hint: update }];
  }
  const changes = diffSkeletons(parsed, skeleton as unknown as Record<string, unknown>);
  if (changes.length === 0) {
    return [{ ...base, id: `golden-format:${cell}`, class: 'stylistic', subject: 'golden', message: `the golden of ${cell} is not in canonical form`, hint: update }];
  }
  return changes.map((change) => ({
    ...base,
    id: `golden:${cell}:${change.section}`,
    class: 'behavioral',
    subject: change.section,
    message: `${change.section} ${change.change}`,
    diff: change.diff,
    hint: update,
  }));
}
