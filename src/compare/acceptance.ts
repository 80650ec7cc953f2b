import type { Finding } from './findings.js';
import { factsOfId, idToken, respelledId } from './findingId.js';

/** One way of an accepted split: the value (or its fingerprint), in words, and who holds it where. */
export interface PinnedWay {
  providers: string[];
  scenarios: string[];
  value?: unknown;
  /** Instead of a long value: `sha256:` and 16 hex of its canonical text. */
  fingerprint?: string;
  /** The long value in words, beside its fingerprint. */
  summary?: string;
  /** Providers accepted onto this way after the split was, each with its own reason. */
  reasons?: Record<string, string>;
}

export interface AcceptedEntry {
  id?: string;
  facet?: string;
  subject?: string;
  scenario?: string;
  providers?: string[];
  /** The ways of an accepted split, scenario by scenario (src/compare/pinned.ts). */
  ways?: PinnedWay[];
  reason: string;
}

/** An entry that accepts a facet for everyone and records no ways: what `drift migrate` rewrites. */
export const isLegacy = (entry: AcceptedEntry) => entry.id === undefined && entry.providers === undefined && entry.ways === undefined;

/**
 * Whether an entry's subject is the finding's: the same text, or the same once spelled as ids spell it.
 * An id's facts (factsOfId, what `drift accept` checks an id against) carry the subject as the id spells
 * it, and an entry holds it as the facet names it; two subjects an id cannot tell apart are one.
 */
const sameSubject = (entry: string, finding: string) => entry === finding || idToken(entry) === idToken(finding);

export const matches = (entry: AcceptedEntry, finding: Finding): boolean => matchesAs(entry, entry.id === undefined ? undefined : respelledId(entry.id), finding);

/** matches, the entry's id already spelled as ids are now: applyAccepted spells each entry's once, not once per finding. */
function matchesAs(entry: AcceptedEntry, id: string | undefined, finding: Finding): boolean {
  // An id names no scenario; an entry beside it may, to accept the cause in that scenario only. An id
  // an older drift spelled (a space, a bracket) matches as it is spelled now; legacyEntries reports it.
  if (id !== undefined) return id === finding.id && (entry.scenario === undefined || entry.scenario === finding.scenario);
  // A provider that left, joined or broke pinned ways is accepted only once an entry names it.
  if (finding.pinned !== undefined && entry.ways !== undefined) return false;
  if (entry.facet !== finding.facet) return false;
  if (entry.subject !== undefined && !sameSubject(entry.subject, finding.subject)) return false;
  if (entry.scenario !== undefined && entry.scenario !== finding.scenario) return false;
  if (entry.providers !== undefined && (!finding.provider || !entry.providers.includes(finding.provider))) return false;
  if (entry.ways !== undefined) {
    // Pinned: the split and the divergences of providers that hold their ways, where they were pinned.
    const ways = entry.ways.filter((way) => finding.scenario !== undefined && way.scenarios.includes(finding.scenario));
    if (ways.length === 0) return false;
    return finding.type === 'split' || (finding.provider !== undefined && ways.some((way) => way.providers.includes(finding.provider!)));
  }
  // An entry for the whole facet accepted the ways the providers had; a provider that brings a new
  // one (see consensus.ts) is accepted only by an entry that names it.
  if (finding.ways !== undefined && entry.providers === undefined) return false;
  return true;
}

/** What an entry is about, from its fields or from the facts its id encodes. */
function aboutOf(entry: AcceptedEntry): { scenario?: string; subject?: string; facet?: string; providers?: string[] } | undefined {
  if (entry.id === undefined) return entry;
  const facts = factsOfId(entry.id);
  if (!facts || facts.type === 'rule') return undefined;
  return { ...(entry.scenario !== undefined ? { scenario: entry.scenario } : {}), subject: facts.subject, facet: facts.facet!, ...(facts.provider ? { providers: [facts.provider] } : {}) };
}

/**
 * The findings that took over what a stale entry accepted, so the hint can name the id to accept
 * instead: first the same facet reported another way (a divergence that became a split when its
 * convention went away, or the reverse), else the same subject and providers under another facet
 * (a facet that was divided or renamed).
 */
function successorsOf(entry: AcceptedEntry, judged: ReadonlyArray<{ finding: Finding; subject: string }>): string[] {
  const about = aboutOf(entry);
  if (!about) return [];
  const subject = about.subject === undefined ? undefined : idToken(about.subject);
  const related = judged
    .filter(
      ({ finding, subject: spelled }) =>
        (about.scenario === undefined || finding.scenario === about.scenario) &&
        (subject === undefined || spelled === subject) &&
        // A split blames none of the entry's providers, but it is about them too.
        (finding.type === 'split' || about.providers === undefined || (finding.provider !== undefined && about.providers.includes(finding.provider))),
    )
    .map(({ finding }) => finding);
  const sameFacet = related.filter((finding) => finding.facet === about.facet);
  const found = sameFacet.length || about.subject === undefined ? sameFacet : related;
  return [...new Set(found.map((finding) => finding.id))].sort();
}

/** The id of the finding that reports a facet-wide entry without ways: its number in the file, counting from 1 as its message does. */
export const legacyEntryId = (index: number) => `accepted-legacy:${index + 1}`;

/**
 * The entries `drift migrate` rewrites, each reported in every run until it has: one that accepts a facet
 * for every provider and pins no ways (it absorbs whatever any provider does on the facet: a newcomer's
 * way, an established provider's third one), and one whose id an older drift spelled, with a space,
 * bracket or comma (it still matches, as the id is spelled now).
 */
export function legacyEntries(entries: readonly AcceptedEntry[], file: string): Finding[] {
  return entries.flatMap((entry, index) => (isLegacy(entry) ? [legacyFinding(entry, index, file)] : isRespelled(entry) ? [respelledFinding(entry, index, file)] : []));
}

/** An entry whose id this drift spells otherwise (src/compare/findingId.ts). */
export const isRespelled = (entry: AcceptedEntry) => entry.id !== undefined && respelledId(entry.id) !== entry.id;

function respelledFinding(entry: AcceptedEntry, index: number, file: string): Finding {
  const message = `entry ${index + 1} of ${file} accepts ${JSON.stringify(entry.id)}, an id as an older drift spelled it: it matches ${respelledId(entry.id!)}, the id this drift prints, until it is respelled`;
  return entryFinding(index, message, 'run `drift migrate` to respell the id as drift prints it now (then review and commit the file)');
}

function legacyFinding(entry: AcceptedEntry, index: number, file: string): Finding {
  const message = `entry ${index + 1} of ${file} (${describeEntry(entry)}) accepts the facet for every provider and pins no ways: a provider that joins or leaves one of them would go unseen`;
  return entryFinding(index, message, 'run `drift migrate` to record each way the providers take today (then review and commit the file)');
}

/** A finding on entry `index` of the accepted list that `drift migrate` rewrites. */
function entryFinding(index: number, message: string, hint: string): Finding {
  return { id: legacyEntryId(index), type: 'accepted-stale', class: 'behavioral', subject: 'accepted', message, hint };
}

export function describeEntry(entry: AcceptedEntry): string {
  if (entry.id) return entry.scenario ? `${entry.id} in ${entry.scenario}` : entry.id;
  return [`facet ${entry.facet}`, entry.subject && `subject ${entry.subject}`, entry.scenario && `scenario ${entry.scenario}`, entry.providers && `providers ${entry.providers.join(',')}`]
    .filter(Boolean)
    .join(', ');
}

/** Why an entry accepts a finding: its reason, and the provider's own where it was accepted onto a pinned way with one. */
function reasonFor(entry: AcceptedEntry, finding: Finding): string {
  const own = finding.provider === undefined ? undefined : entry.ways?.map((way) => way.reasons?.[finding.provider!]).find((reason) => reason !== undefined);
  return own === undefined ? entry.reason : `${finding.provider}: ${own} (${entry.reason})`;
}

/**
 * The providers whose own output changed in this run (a golden diff, not a missing golden) among those
 * the successors are about: a successor they make is their change, which a stale entry must not be
 * replaced by before the change is judged (it would accept the regression itself).
 */
function changedBy(successors: readonly string[], findings: readonly Finding[]): string[] {
  const changed = new Set(findings.filter((finding) => finding.type === 'golden' && finding.provider !== undefined && !finding.id.startsWith('golden-missing:')).map((finding) => finding.provider!));
  const about = findings.filter((finding) => successors.includes(finding.id)).flatMap((finding) => (finding.provider !== undefined ? [finding.provider] : Object.keys(finding.values ?? {})));
  return [...new Set(about)].filter((provider) => changed.has(provider)).sort();
}

/**
 * Marks the findings accepted entries cover (golden changes are never accepted: update the golden)
 * and returns the entries that matched nothing, as findings that fail only where `strict` (CI).
 */
export function applyAccepted(findings: Finding[], entries: AcceptedEntry[], options: { strict: boolean; file: string }): Finding[] {
  const used = new Set<number>();
  const ids = entries.map((entry) => (entry.id === undefined ? undefined : respelledId(entry.id)));
  const out = findings.map((finding) => {
    // An entry whose ways a provider left or joined is not stale: it is what that finding is about.
    if (finding.pinned) used.add(finding.pinned.entry - 1);
    if (finding.type === 'golden' || finding.type === 'error') return finding;
    const index = entries.findIndex((entry, at) => matchesAs(entry, ids[at], finding));
    if (index < 0) return finding;
    used.add(index);
    return { ...finding, accepted: { reason: reasonFor(entries[index]!, finding) } };
  });
  // What a stale entry's successors are drawn from, each subject spelled once, not once per stale entry.
  let judged: Array<{ finding: Finding; subject: string }> | undefined;
  entries.forEach((entry, index) => {
    if (used.has(index)) return;
    judged ??= findings.filter((finding) => finding.type === 'split' || finding.type === 'divergence').map((finding) => ({ finding, subject: idToken(finding.subject) }));
    const successors = successorsOf(entry, judged);
    const shown = successors.slice(0, 3).join(', ') + (successors.length > 3 ? ` and ${successors.length - 3} more` : '');
    const changed = changedBy(successors, findings);
    const hint = changed.length
      ? `what it accepted is now reported as ${shown}, since the output of ${changed.join(', ')} changed (see its golden diff): if that change is a mistake, fix ${changed.join(', ')} and the entry matches again; if it is intended, run drift update -p ${changed.join(' -p ')} and decide what the next run reports`
      : successors.length
        ? `what it accepted is now reported as ${shown}: replace the entry with one for that id if its reason still holds (drift accept '${successors[0]}' --reason "..."), else remove it`
        : 'remove the entry: what it accepted is gone';
    out.push({
      // Numbered from 1, as the message and drift accept's refusal number it.
      id: `accepted-stale:${index + 1}`,
      type: 'accepted-stale',
      class: 'behavioral',
      subject: 'accepted',
      message: `entry ${index + 1} of ${options.file} (${describeEntry(entry)}) matches no finding any more`,
      hint,
      // Outside CI the entry fails nothing, so it is listed with the accepted; what to do goes with it, in every format.
      ...(options.strict ? {} : { accepted: { reason: `stale entries fail only under CI; ${hint}` } }),
    });
  });
  return out;
}

