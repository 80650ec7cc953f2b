/**
 * What a newcomer does to the others. A provider with no committed goldens joins the vote: with it, a
 * facet may get a convention that blames established providers nobody touched (`form`), a convention
 * may change its value (`tip`), or an agreement may fall apart into a split (`dissolve`). Judged where
 * the newcomer works (`drift diff -p NEW`, `drift expect -p NEW`): the findings a full run would report
 * with the newcomer and not without it, on the established providers, become one `tipped` finding per
 * subject and facet, on the newcomer's side, with the one decision it asks. Once that decision is taken
 * (the command it names run), the full run is as clean as the newcomer's loop. Pure.
 */
import { tippedId } from './findingId.js';
import { scenariosOf, type Finding } from './findings.js';
import { compareText, stableStringify } from '../util/objects.js';

export interface TippedInput {
  /** The providers of the run that have no goldens yet, sorted. */
  newcomers: readonly string[];
  /** A full run's findings, every provider judged alike, with the newcomers. */
  withNewcomers: readonly Finding[];
  /** The same without them: the established providers among themselves. */
  without: readonly Finding[];
  /** Ids the newcomer's own run reports already (a split it takes part in is told there). */
  reported: ReadonlySet<string>;
}

/** The finding types a vote yields: what a newcomer's value can change for the others. */
const VOTED: ReadonlySet<Finding['type']> = new Set(['divergence', 'split', 'style', 'locked']);

const quoted = (id: string) => `'${id.replaceAll("'", "'\\''")}'`;

export interface Tipped {
  /** One per subject and facet. */
  findings: Finding[];
  /** The ids of the findings on the established providers each stands for. */
  consumed: Set<string>;
}

export function tippedConventions({ newcomers, withNewcomers, without, reported }: TippedInput): Tipped {
  if (newcomers.length === 0) return { findings: [], consumed: new Set() };
  const isNew = new Set(newcomers);
  const before = new Set(without.map((finding) => finding.id));
  const facetKey = (finding: Finding) => `${finding.subject}\u0000${finding.facet ?? ''}`;
  const judgedBefore = new Map<string, Finding[]>();
  for (const finding of without) judgedBefore.set(facetKey(finding), [...(judgedBefore.get(facetKey(finding)) ?? []), finding]);
  const added = withNewcomers.filter(
    (finding) =>
      VOTED.has(finding.type) && !finding.accepted && !before.has(finding.id) && !reported.has(finding.id) && (finding.provider === undefined || !isNew.has(finding.provider)),
  );
  const groups = new Map<string, Finding[]>();
  for (const finding of added) groups.set(facetKey(finding), [...(groups.get(facetKey(finding)) ?? []), finding]);
  const newcomer = newcomers[0]!;
  const out: Finding[] = [];
  const consumed = new Set(added.map((finding) => finding.id));
  for (const [key, consequences] of [...groups].sort(([a], [b]) => compareText(a, b))) {
    const first = consequences[0]!;
    const subject = first.subject;
    const facet = first.facet ?? first.type;
    const blames = [...new Set(consequences.flatMap((finding) => (finding.provider ? [finding.provider] : [])))].sort(compareText);
    const split = consequences.find((finding) => finding.type === 'split');
    const earlier = judgedBefore.get(key) ?? [];
    const effect: 'form' | 'tip' | 'dissolve' = split ? 'dissolve' : earlier.some((finding) => finding.type !== 'split') ? 'tip' : 'form';
    const ids = [...new Set(consequences.map((finding) => finding.id))].sort(compareText);
    const decision = `drift accept ${ids.map(quoted).join(' ')} --reason "..."`;
    const who = newcomers.join(', ');
    const value = first.consensus === undefined ? '' : ` (${summary(first.consensus)})`;
    const message =
      effect === 'dissolve'
        ? `${who} would turn ${facet} of ${subject} into a split the established providers must accept`
        : effect === 'tip'
          ? `${who} would tip the convention on ${facet} of ${subject}${value}, blaming ${blames.join(', ')}, which nobody changed`
          : `${who} would make ${facet} of ${subject} a convention${value} that ${blames.join(', ')} do not follow, though nobody changed them`;
    const hint =
      effect === 'dissolve'
        ? `decide it now, or the full run fails on it: accept the split with each way's reason: ${decision}`
        : `decide it now, or the full run fails on ${blames.join(', ')}: accept their way with its reason: ${decision}; or lock the convention (drift lock ${facet} --subject ${subject} --reason "...") and fix ${blames.join(', ')}`;
    const scenarios = [...new Set(consequences.flatMap(scenariosOf))].sort(compareText);
    out.push({
      id: tippedId(subject, facet, newcomer),
      type: 'tipped',
      class: first.class,
      provider: newcomer,
      ...(scenarios.length === 1 ? { scenario: scenarios[0]! } : scenarios.length ? { scenarios } : {}),
      subject,
      facet,
      message,
      ...(first.values ? { values: first.values } : {}),
      ...(first.consensus !== undefined ? { consensus: first.consensus } : {}),
      tipped: { effect, blames, decision },
      hint,
    });
  }
  return { findings: out, consumed };
}

/** A value in a few characters, for a message: the whole when short. */
function summary(value: unknown): string {
  const text = stableStringify(value ?? null);
  if (text.length <= 80) return text;
  return Array.isArray(value) ? `a list of ${value.length}` : 'an object';
}
