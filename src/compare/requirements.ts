/**
 * What `drift diff -p P` holds P to, printed as a target (`drift expect -p P`). Pure.
 *
 * The requirements are read from the facets diff judges, through the functions that judge them: the
 * established providers' conventions and ways (consensus.ts `requiredOf`), the ways accepted splits
 * pin (pinned.ts), the locked conventions, the contract rules and the style conventions. Each line's
 * status is diff's own verdict, never recomputed: a line is `not met` where diff raised a finding with
 * its id that no accepted entry covers, `accepted` where every such finding is accepted, else `met`.
 * A finding of P that no modelled requirement names still gets a line of its own, so `expect --unmet`
 * lists exactly what diff fails on.
 */
import { compareText, stableStringify } from '../util/objects.js';
import type { AcceptedEntry } from './acceptance.js';
import { requiredOf } from './consensus.js';
import type { Facet } from './cross.js';
import { scenariosOf, type Finding } from './findings.js';
import type { LockedConvention } from './locked.js';
import { pins, wayInWords, waysIn } from './pinned.js';
import { RULE_METAS } from './rules/index.js';
import { facetValueInWords } from './summary.js';
import { divergenceId, findingId, splitId } from './findingId.js';

export type Status = 'met' | 'not met' | 'accepted';

/** One requirement in one scenario (none for style), before lines gather the scenarios it holds in. */
export interface Requirement {
  /** The id of the finding diff raises where it is not met. */
  id: string;
  subject: string;
  facet: string;
  /** What is required, in words. */
  expect: string;
  /** Who requires it: `convention of a, b, c`, `locked: <reason>`, `contract rule`, ... */
  by: string;
  scenario?: string;
  /** Where an accepted entry pins the provider's own way: that entry's reason for it (its status is then `accepted` unless diff finds it left). */
  accepted?: string;
}

/** One distinct requirement: what `drift expect` prints. */
export interface ExpectLine {
  id: string;
  subject: string;
  facet: string;
  expect: string;
  by: string;
  /** The scenarios it holds in, sorted; empty for the code's style, which has no scenario. */
  scenarios: string[];
  /** Absent when the provider was not rendered. */
  status?: Status;
  /** The reason of the accepted entry that covers it, where its status is `accepted`. */
  accepted?: string;
  /** Where not met: the scenarios whose findings no entry accepts (a line may hold in more). */
  notMetIn?: string[];
  /** Where not met or accepted: what diff says, and what to do (the first finding's). */
  message?: string;
  hint?: string;
  /** Where not met or accepted: where the cause is, as the finding says it (its file:line, then one provider's that follows). */
  where?: string[];
}

const words = (facet: { subject: string; facet: string }, value: unknown) => facetValueInWords(facet.subject, facet.facet, value);
const names = (providers: readonly string[]) => providers.join(', ');

export interface AcrossRequirementInput {
  scenario: string;
  facets: readonly Facet[];
  provider: string;
  /** Whether the provider has no golden of its own here, so it may follow any established way. */
  newcomer: boolean;
  /** Whether the provider rendered: a facet it has no value of then requires nothing of it. */
  rendered: boolean;
  locked: readonly LockedConvention[];
  accepted: readonly AcceptedEntry[];
}

/**
 * What one scenario's facets require of the provider: a locked facet is the lock's (lockedRequirements);
 * a pinned split's facet requires its accepted way; every other facet what the established hold. A facet
 * compared only among the providers that have its subject requires nothing of one without it.
 */
export function acrossRequirements({ scenario, facets, provider, newcomer, rendered, locked, accepted }: AcrossRequirementInput): Requirement[] {
  const out: Requirement[] = [];
  for (const facet of facets) {
    if (rendered && !facet.values.has(provider)) continue;
    if (locked.some((convention) => convention.facet === facet.facet && convention.subject === facet.subject && scenario in convention.values)) continue;
    const div = { id: divergenceId(facet.subject, facet.facet, provider), subject: facet.subject, facet: facet.facet, scenario };
    const index = accepted.findIndex((entry) => pins(entry, scenario, facet.subject, facet.facet));
    if (index >= 0) {
      const entry = accepted[index]!;
      const ways = waysIn(entry, scenario);
      const mine = ways.find((way) => way.providers.includes(provider));
      const by = `accepted split, entry ${index + 1}: ${entry.reason}`;
      out.push(
        mine
          ? { ...div, expect: wayInWords(mine, facet.subject, facet.facet), by, accepted: mine.reasons?.[provider] ?? entry.reason }
          : { ...div, expect: `an accepted entry naming ${provider}, for one of: ${ways.map((way) => `${wayInWords(way, facet.subject, facet.facet)} (${names(way.providers)})`).join('; ')}`, by },
      );
      continue;
    }
    const others = new Map([...facet.values].filter(([name]) => name !== provider));
    const texts = new Map([...others].map(([name, value]) => [name, stableStringify(value)]));
    const required = requiredOf(others, texts, newcomer);
    if (required?.kind === 'convention') out.push({ ...div, expect: words(facet, required.convention.value), by: `convention of ${names(required.convention.providers)}` });
    if (required?.kind === 'ways') out.push({ ...div, expect: `one of: ${required.ways.map((way) => `${words(facet, way.value)} (${names(way.providers)})`).join('; ')}`, by: 'the established ways (no convention)' });
    if (required?.kind === 'pair') {
      out.push({ id: splitId(facet.subject, facet.facet), subject: facet.subject, facet: facet.facet, scenario, expect: words(facet, required.other.value), by: `only ${names(required.other.providers)} ${required.other.providers.length === 1 ? 'has' : 'have'} it besides: a difference is a split` });
    }
  }
  return out;
}

/** Every locked convention, in every scenario it was locked in: a provider without the subject differs too. */
export function lockedRequirements(locked: readonly LockedConvention[], scenarios: readonly string[], provider: string): Requirement[] {
  return locked.flatMap((convention) =>
    scenarios
      .filter((scenario) => scenario in convention.values)
      .map((scenario) => ({ id: findingId('locked', convention.facet, convention.subject, provider), subject: convention.subject, facet: convention.facet, scenario, expect: words(convention, convention.values[scenario]), by: `locked: ${convention.reason}` })),
  );
}

/** Every contract rule in every scenario. Its violations carry their subject in their ids: they become lines of their own. */
export function ruleRequirements(scenarios: readonly string[], provider: string): Requirement[] {
  return RULE_METAS.flatMap((rule) => scenarios.map((scenario) => ({ id: findingId('rule', rule.id, provider), subject: 'every resource', facet: rule.id, scenario, expect: rule.description, by: 'contract rule' })));
}

/** A finding no modelled requirement names, as the requirement it says is not met. */
function fromFinding(finding: Finding): Requirement {
  const rule = finding.type === 'rule' ? RULE_METAS.find((meta) => meta.id === finding.facet) : undefined;
  const expect = rule ? rule.description : finding.consensus !== undefined ? words({ subject: finding.subject, facet: finding.facet ?? '' }, finding.consensus) : finding.message;
  return { id: finding.id, subject: finding.subject, facet: finding.facet ?? finding.type, expect, by: rule ? 'contract rule' : finding.type };
}

export interface LinesInput {
  provider: string;
  requirements: readonly Requirement[];
  /** What diff judged; absent when the provider was not rendered (no status). */
  findings?: readonly Finding[];
}

/**
 * The distinct requirements with the scenarios each holds in and, from diff's findings, its status. A
 * finding counts for the provider when it names it, or when it is a split only the provider's value makes.
 */
export function expectLines({ provider, requirements, findings }: LinesInput): ExpectLine[] {
  const lines = new Map<string, ExpectLine>();
  const keyOf = (id: string, requirement: Requirement) => `${id}\u0000${requirement.expect}\u0000${requirement.by}`;
  const add = (requirement: Requirement) => {
    const id = requirement.id;
    const key = keyOf(id, requirement);
    const line: ExpectLine = lines.get(key) ?? { id, subject: requirement.subject, facet: requirement.facet, expect: requirement.expect, by: requirement.by, scenarios: [], ...(requirement.accepted ? { accepted: requirement.accepted } : {}) };
    if (requirement.scenario !== undefined && !line.scenarios.includes(requirement.scenario)) line.scenarios.push(requirement.scenario);
    lines.set(key, line);
    return line;
  };
  const judged = findings?.filter((finding) => finding.type !== 'golden' && (finding.provider === provider || (finding.provider === undefined && finding.type === 'split'))) ?? [];
  // Each rule's own line (`rule:<rule-id>:<provider>`), which keeps the scenarios where nothing violates it.
  const ruleLines = new Map<string, ExpectLine>();
  for (const requirement of requirements) {
    const line = add(requirement);
    if (requirement.id === findingId('rule', requirement.facet, provider)) ruleLines.set(requirement.facet, line);
  }
  const byId = new Map<string, ExpectLine[]>();
  for (const line of lines.values()) byId.set(line.id, [...(byId.get(line.id) ?? []), line]);
  const raised = new Map<ExpectLine, Finding[]>();
  const raise = (line: ExpectLine, finding: Finding) => raised.set(line, [...(raised.get(line) ?? []), finding]);
  for (const finding of judged) {
    const candidates = byId.get(finding.id) ?? [];
    const shows = scenariosOf(finding);
    // A finding without a scenario (style) is about every line with its id.
    const here = shows.length === 0 ? candidates : candidates.filter((candidate) => candidate.scenarios.length === 0 || candidate.scenarios.some((scenario) => shows.includes(scenario)));
    if (here.length) {
      for (const line of here) raise(line, finding);
      continue;
    }
    // A split blames nobody: it is the provider's only where a requirement of its own names it.
    if (finding.provider === undefined) continue;
    const line = add(fromFinding(finding));
    for (const scenario of shows) if (!line.scenarios.includes(scenario)) line.scenarios.push(scenario);
    raise(line, finding);
    // A rule violated in a scenario is its subject's line there, no longer the rule's own.
    const rule = finding.type === 'rule' ? ruleLines.get(finding.facet ?? '') : undefined;
    if (rule) rule.scenarios = rule.scenarios.filter((scenario) => !shows.includes(scenario));
  }
  const violatedEverywhere = new Set([...ruleLines.values()].filter((line) => line.scenarios.length === 0));
  const out = [...lines.values()].filter((line) => !violatedEverywhere.has(line));
  return out
    .map((line) => {
      const sorted = [...line.scenarios].sort(compareText);
      if (!findings) return { ...line, scenarios: sorted };
      const found = raised.get(line) ?? [];
      const failing = found.find((finding) => !finding.accepted);
      // A way an accepted split pins for the provider reads accepted while it holds it, as the split it belongs to is.
      const status: Status = failing ? 'not met' : found.length || line.accepted ? 'accepted' : 'met';
      const first = failing ?? found[0];
      const { accepted: pinnedFor, ...rest } = line;
      const reason = first?.accepted?.reason ?? pinnedFor;
      // Only the line's own scenarios: a finding one cause makes of several scenarios may hold others on another line.
      const notMetIn = [...new Set(found.flatMap((finding) => (finding.accepted ? [] : scenariosOf(finding))))].filter((scenario) => sorted.length === 0 || sorted.includes(scenario)).sort(compareText);
      return {
        ...rest,
        scenarios: sorted,
        status,
        ...(status === 'accepted' && reason ? { accepted: reason } : {}),
        ...(notMetIn.length ? { notMetIn } : {}),
        ...(first ? { message: first.message, hint: first.hint } : {}),
        ...(first?.where?.length ? { where: first.where } : {}),
      };
    })
    .sort((a, b) => compareText(a.id, b.id) || compareText(a.scenarios.join(','), b.scenarios.join(',')) || compareText(a.expect, b.expect));
}
