/** What drift found: one golden mismatch, divergence, split, rule violation or rendering error. */

export type FindingClass = 'behavioral' | 'stylistic' | 'contract';
/**
 * `cause`: several findings of one provider whose `where` is the same place in its code (one gate, one
 * early return), reported as one (src/compare/grouping.ts); its `consequences` are those findings.
 * `tipped`: on a newcomer's side, a convention it would form, tip or dissolve among the established
 * providers (id `tip:<subject>:<facet>:<newcomer>`).
 */
export type FindingType = 'golden' | 'divergence' | 'split' | 'rule' | 'locked' | 'style' | 'tipped' | 'cause' | 'error' | 'accepted-stale' | 'contract-stale';

/** One way of a split or of the established providers: a value, who holds it, and where each holder's code does. */
export interface Way {
  value: unknown;
  providers: string[];
  /** `<provider>: file:line` of each holder whose source was read, in `providers` order. */
  where?: string[];
}

export interface Finding {
  /** Stable across runs, so a finding can be accepted by id. */
  id: string;
  type: FindingType;
  class: FindingClass;
  provider?: string;
  scenario?: string;
  /** One cause shown by several scenarios (src/compare/grouping.ts): each of them, sorted; `scenario` is then absent. */
  scenarios?: string[];
  /** What it is about: a composed key, a role and facet, a status field. */
  subject: string;
  /** The compared facet (divergences) or rule id (rules); accepted.yaml can match on it. */
  facet?: string;
  message: string;
  /** Each provider's value (divergences, splits), or expected/actual. */
  values?: Record<string, unknown>;
  /** The convention's value (divergences). */
  consensus?: unknown;
  /** Splits: each distinct value and the providers that hold it, largest group first. */
  groups?: Way[];
  /** Divergences of a provider that follows none of the established providers' ways (`-p`): those ways. */
  ways?: Way[];
  /**
   * A tipped finding (type `tipped`): what the newcomer does to a convention of the established providers,
   * the providers it would then blame, and the decision it asks.
   */
  tipped?: { effect: 'form' | 'tip' | 'dissolve'; blames: string[]; decision: string };
  /** A cause (type `cause`): the findings its one place in the code yields, each complete, in report order. */
  consequences?: Finding[];
  /**
   * A provider that left, joined or broke the ways an accepted split pins (src/compare/pinned.ts): the
   * entry (1-based), its ways in this scenario, and the providers of the way it joined.
   */
  pinned?: { entry: number; ways: Array<{ summary: string; providers: string[] }>; joined?: string[] };
  /** A readable diff (golden findings). */
  diff?: string;
  /**
   * Where the cause is, relative to the project root: the file:line that differs (the code composing the
   * subject, or the adapter's provider.yaml line), then `<provider>: file:line` of one that follows the convention.
   */
  where?: string[];
  /** What to do about it. */
  hint: string;
  /** Set when goldens/accepted.yaml accepts it. */
  accepted?: { reason: string };
}

/** A finding as its parts: a cause's consequences, or the finding itself. */
export function consequencesOf(finding: Finding): Finding[] {
  return finding.consequences ?? [finding];
}

/** The scenarios a finding is about: its one scenario, the scenarios of its cause, or none. */
export function scenariosOf(finding: Finding): string[] {
  return finding.scenario !== undefined ? [finding.scenario] : (finding.scenarios ?? []);
}

const CLASS_ORDER: Record<FindingClass, number> = { contract: 0, behavioral: 1, stylistic: 2 };

/** Contract first, then behavior, then style; then by provider, scenario and id. Deterministic. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const text = (value: string | undefined) => value ?? '';
  const scenarioOf = (finding: Finding) => finding.scenario ?? finding.scenarios?.[0];
  return [...findings].sort(
    (a, b) =>
      CLASS_ORDER[a.class] - CLASS_ORDER[b.class] ||
      (text(a.provider) < text(b.provider) ? -1 : text(a.provider) > text(b.provider) ? 1 : 0) ||
      (text(scenarioOf(a)) < text(scenarioOf(b)) ? -1 : text(scenarioOf(a)) > text(scenarioOf(b)) ? 1 : 0) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
