/**
 * One cause is one finding, in two steps. Divergences, splits and rule violations are judged scenario
 * by scenario, and their ids name no scenario: the same id in several scenarios is one cause (one `if`
 * removed gives one finding, not one per scenario it shows in). `groupByCause`, after judging and after
 * accepted entries were matched scenario by scenario, merges the findings that share an id into one
 * listing its scenarios. An accepted finding never merges with an unaccepted one, nor with one accepted
 * for another reason: what is accepted in one scenario only stays apart from what fails in the others.
 * Then `groupByPlace`, once findings say where, makes the findings of one provider that point at the
 * same line of its code (one gate, one early return) one `cause` whose consequences they are. Pure.
 */
import { compareText } from '../util/objects.js';
import { causeId } from './findingId.js';
import { sortFindings, type Finding, type FindingClass, type FindingType } from './findings.js';

/** The finding types judged per scenario whose ids drop the scenario. */
const PER_SCENARIO: ReadonlySet<FindingType> = new Set(['divergence', 'split', 'rule']);

const keyOf = (finding: Finding) => `${finding.id}\u0000${finding.accepted ? `accepted\u0000${finding.accepted.reason}` : 'open'}`;

/**
 * The findings with those of one cause merged, in the order each cause first appears. A merged finding
 * is its first scenario's (values, convention and hint as that scenario shows them), with `scenarios`
 * instead of `scenario` and, when several show it, its message saying how many.
 */
export function groupByCause(findings: readonly Finding[]): Finding[] {
  const groups = new Map<string, Finding[]>();
  const order: Array<Finding | string> = [];
  for (const finding of findings) {
    if (!PER_SCENARIO.has(finding.type) || finding.scenario === undefined) {
      order.push(finding);
      continue;
    }
    const key = keyOf(finding);
    const group = groups.get(key);
    if (group) group.push(finding);
    else {
      groups.set(key, [finding]);
      order.push(key);
    }
  }
  return order.map((item) => (typeof item === 'string' ? merged(groups.get(item)!) : item));
}

function merged(group: readonly Finding[]): Finding {
  const scenarios = [...new Set(group.map((finding) => finding.scenario!))].sort(compareText);
  const first = group.find((finding) => finding.scenario === scenarios[0])!;
  const { scenario: _scenario, ...rest } = first;
  // The scenarios are said once, by `scenarios`: reports print them beside the finding, not in its message.
  return { ...rest, scenarios };
}

/**
 * The finding types a place in the code decides: what a provider composes, gates or writes. Splits blame
 * nobody and tipped conventions are decisions about the others, so they stand alone.
 */
const DECIDED: ReadonlySet<FindingType> = new Set(['divergence', 'rule', 'locked', 'style']);

const SEVERITY: Record<FindingClass, number> = { contract: 0, behavioral: 1, stylistic: 2 };

/** The provider has none of what the facet is about: its `where` is where the thing would go, not a decision. */
function lacks(finding: Finding): boolean {
  const values = finding.values as Record<string, unknown> | undefined;
  if (!values || !finding.provider || !(finding.provider in values)) return false;
  const own = values[finding.provider];
  return own === null || own === false || (Array.isArray(own) && own.length === 0);
}

/** The place a finding's cause is at in its own provider's code, when it is one a cause can group by. */
function placeOf(finding: Finding): string | undefined {
  if (!finding.provider || !DECIDED.has(finding.type) || lacks(finding)) return undefined;
  const place = finding.where?.[0];
  // A follower's place (`<provider>: file:line`) is never the first; an adapter line or a source line is.
  return place !== undefined && /:\d+$/.test(place) && !place.includes(': ') ? place : undefined;
}

/** Findings of one cause: one provider, one place, and all failing or all accepted for one reason. */
const causeKeyOf = (finding: Finding, place: string) => `${finding.provider}\u0000${place}\u0000${finding.accepted ? `accepted\u0000${finding.accepted.reason}` : 'open'}`;

/**
 * One finding per place in a provider's code: findings of one provider whose `where` starts at
 * the same file:line become one `cause` (id `cause:<provider>:<file>:<line>`) listing them, complete, as
 * its consequences; a place only one finding points at leaves that finding as it is. Failing findings and
findings accepted for one reason are never mixed: accepted ones make an accepted cause. The cause takes the
 * most serious class of its consequences, every scenario they show in, their places (its own first, then
 * one follower's) and one fix. So the better `where` names the deciding gate, the more a cause holds.
 */
export function groupByPlace(findings: readonly Finding[]): Finding[] {
  const byPlace = new Map<string, Finding[]>();
  for (const finding of findings) {
    const place = placeOf(finding);
    if (place === undefined) continue;
    const key = causeKeyOf(finding, place);
    byPlace.set(key, [...(byPlace.get(key) ?? []), finding]);
  }
  const emitted = new Set<string>();
  const out: Finding[] = [];
  for (const finding of findings) {
    const place = placeOf(finding);
    const key = causeKeyOf(finding, place ?? '');
    const group = place === undefined ? undefined : byPlace.get(key);
    if (!group || group.length < 2) {
      out.push(finding);
      continue;
    }
    if (emitted.has(key)) continue;
    emitted.add(key);
    out.push(causeOf(finding.provider!, place!, group));
  }
  return out;
}

/** The cause at `place` of `provider`'s code, from the findings pointing there. */
function causeOf(provider: string, place: string, group: readonly Finding[]): Finding {
  const consequences = sortFindings(group);
  const cls = consequences.map((finding) => finding.class).sort((a, b) => SEVERITY[a] - SEVERITY[b])[0]!;
  const scenarios = [...new Set(consequences.flatMap((finding) => (finding.scenario !== undefined ? [finding.scenario] : (finding.scenarios ?? []))))].sort(compareText);
  const follower = consequences.flatMap((finding) => finding.where?.slice(1) ?? [])[0];
  const subjects = [...new Set(consequences.map((finding) => finding.subject))];
  const id = causeId(provider, place);
  return {
    id,
    type: 'cause',
    class: cls,
    provider,
    ...(scenarios.length ? { scenarios } : {}),
    subject: subjects.join(', '),
    message: `${consequences.length} findings from one place in ${provider}'s code: ${describeConsequences(consequences)}`,
    where: [place, ...(follower !== undefined ? [follower] : [])],
    // One fix: the one place; each consequence keeps its own hint, saying what it should be instead.
    ...(consequences[0]!.accepted ? { accepted: { reason: consequences[0]!.accepted.reason } } : {}),
    hint: `change ${place}, which ${consequences.length === 2 ? 'both' : `all ${consequences.length}`} come from, so that ${provider} does what each of them asks; or accept them all: drift accept '${id}' --reason "..."`,
    consequences,
  };
}

/** `gated-on of cluster, network; rule no-early-ready`: the consequences by facet, each with its subjects, in a few words. */
function describeConsequences(consequences: readonly Finding[]): string {
  const byFacet = new Map<string, string[]>();
  for (const finding of consequences) {
    const facet = finding.type === 'rule' ? `rule ${finding.facet ?? ''}`.trim() : (finding.facet ?? finding.type);
    byFacet.set(facet, [...new Set([...(byFacet.get(facet) ?? []), finding.subject])]);
  }
  const parts = [...byFacet].map(([facet, subjects]) => `${facet} of ${subjects.length <= 4 ? subjects.join(', ') : `${subjects.slice(0, 3).join(', ')} and ${subjects.length - 3} more`}`);
  return parts.length <= 3 ? parts.join('; ') : `${parts.slice(0, 3).join('; ')} and ${parts.length - 3} more`;
}
