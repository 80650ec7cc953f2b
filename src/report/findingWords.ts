/**
 * A finding in the few words the text and Markdown reports print: its headline, the scenarios once, a
 * split's ways one line each with their places, a cause's consequences one line each, values in words
 * (never JSON). The JSON report keeps the full detail. Pure; the formatters escape what these return.
 */
import { scenariosOf, type Finding } from '../compare/findings.js';
import { findingId } from '../compare/findingId.js';
import { facetValueInWords } from '../compare/summary.js';
import { describeScenarios } from './acceptedGroups.js';

/** A message's first line: an error finding carries the function's output on the lines after it. */
export function firstLine(message: string): string {
  return message.split(/\r\n|[\r\n\u2028\u2029\u0085\v\f]/, 1)[0]!.trimEnd();
}

const NO_CONVENTION = 'has no convention';

/**
 * What a finding says, on one line. A split's message lists its ways too; those are printed one line
 * each, so the headline stops where the message says there is no convention.
 */
export function headlineOf(finding: Finding): string {
  const line = firstLine(finding.message);
  // A cause's consequences are listed under it, one line each: its headline only counts them.
  if (finding.type === 'cause' && finding.consequences) return line.replace(/: .*$/, '');
  if (finding.type !== 'split' || !finding.groups?.length) return line;
  const at = line.indexOf(NO_CONVENTION);
  return at < 0 ? line : line.slice(0, at + NO_CONVENTION.length);
}

/**
 * Who and where, the scenarios said once: `gke/converge` for one cell (`converge` for a split, which
 * blames nobody), `gke (2 scenarios: converge, two-pools)` or `all (every scenario)` for several, the
 * provider alone (or `all`) for findings of no scenario.
 */
export function placeWords(finding: Finding, total: number, all = 'all', separator = '/'): string {
  const scenarios = scenariosOf(finding);
  if (scenarios.length === 1) return finding.provider ? `${finding.provider}${separator}${scenarios[0]}` : scenarios[0]!;
  const who = finding.provider ?? all;
  return scenarios.length ? `${who} (${describeScenarios(scenarios, total)})` : who;
}

/** A facet's value in words, as the facet's hints say it (steps relative to the cluster, lists, fields). */
const words = (finding: Finding, value: unknown) => facetValueInWords(finding.subject, finding.facet ?? '', value);

/**
 * A split's ways, one line each: who, the value in words, and where each holder takes it. (A newcomer's
 * divergence from every established way says those ways in its hint already.)
 */
export function wayLines(finding: Finding): string[] {
  const ways = finding.groups ?? [];
  return ways.map((way) => `${way.providers.join(', ')}: ${words(finding, way.value)}${way.where?.length ? `  at ${way.where.join('; ')}` : ''}`);
}

const EFFECT: Record<NonNullable<Finding['tipped']>['effect'], string> = { form: 'forms a convention', tip: 'tips the convention', dissolve: 'dissolves the convention' };

/** A tipped convention on one line: what the newcomer does to it, whom that blames, the decision it asks. */
export function tippedLine(finding: Finding): string | undefined {
  const tipped = finding.tipped;
  if (!tipped) return undefined;
  const effect = Object.hasOwn(EFFECT, tipped.effect) ? EFFECT[tipped.effect] : tipped.effect;
  return `${finding.provider ?? 'the newcomer'} ${effect}${tipped.blames.length ? `, blaming ${tipped.blames.join(', ')}` : ''}: ${tipped.decision}`;
}

/**
 * One consequence of a cause on one line: what differs and its value in words, the scenarios when they
 * are not the cause's own, and its id (what `drift accept` also takes alone).
 */
export function consequenceWords(consequence: Finding, cause: Finding, total: number): string {
  const own = scenariosOf(consequence);
  const same = own.join(',') === scenariosOf(cause).join(',');
  const where = !same && own.length ? ` (${describeScenarios(own, total)})` : '';
  const about = [consequence.subject, consequence.type === 'rule' ? undefined : consequence.facet].filter(Boolean).join(' ');
  if (consequence.type === 'divergence' && consequence.provider && consequence.values && consequence.consensus !== undefined) {
    return `${about}: ${words(consequence, consequence.values[consequence.provider])}, convention ${words(consequence, consequence.consensus)}${where}`;
  }
  // A rule's message starts with the rule's id already.
  return `${headlineOf(consequence)}${where}`;
}

/**
 * Missing goldens of one provider, one line instead of one per scenario: a new provider's cells all say
 * the same thing, and one command writes them. Other findings pass through; order is kept.
 */
export function collapseMissingGoldens(findings: readonly Finding[]): Finding[] {
  const missing = (finding: Finding) => finding.type === 'golden' && finding.id.startsWith('golden-missing:') && finding.provider !== undefined && finding.scenario !== undefined;
  const byProvider = new Map<string, Finding[]>();
  for (const finding of findings) if (missing(finding)) byProvider.set(finding.provider!, [...(byProvider.get(finding.provider!) ?? []), finding]);
  const out: Finding[] = [];
  for (const finding of findings) {
    const group = missing(finding) ? byProvider.get(finding.provider!)! : undefined;
    if (!group || group.length < 2) out.push(finding);
    else if (group[0] === finding) {
      const provider = finding.provider!;
      const { scenario: _scenario, ...rest } = finding;
      out.push({
        ...rest,
        // The provider alone, not `<p>/*`: an id is one shell word, and `*` is a glob.
        id: findingId('golden-missing', provider),
        scenarios: group.map((one) => one.scenario!).sort(),
        message: `no golden for ${provider} in ${group.length} scenarios`,
        hint: `review the rendered skeletons, then run \`drift update --provider ${provider}\` and commit them`,
      });
    }
  }
  return out;
}
