import type { Finding } from './findings.js';
import { factsOfId } from './findingId.js';

export interface AcceptedEntry {
  id?: string;
  facet?: string;
  subject?: string;
  scenario?: string;
  providers?: string[];
  reason: string;
}

export function matches(entry: AcceptedEntry, finding: Finding): boolean {
  if (entry.id !== undefined) return entry.id === finding.id;
  if (entry.facet !== finding.facet) return false;
  if (entry.subject !== undefined && entry.subject !== finding.subject) return false;
  if (entry.scenario !== undefined && entry.scenario !== finding.scenario) return false;
  if (entry.providers !== undefined && (!finding.provider || !entry.providers.includes(finding.provider))) return false;
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
  return { scenario: facts.scenario!, subject: facts.subject, facet: facts.facet!, ...(facts.provider ? { providers: [facts.provider] } : {}) };
}

/**
 * The findings that took over what a stale entry accepted, so the hint can name the id to accept
 * instead: first the same facet reported another way (a divergence that became a split when its
 * convention went away, or the reverse), else the same subject and providers under another facet
 * (a facet that was divided or renamed).
 */
function successorsOf(entry: AcceptedEntry, findings: Finding[]): string[] {
  const about = aboutOf(entry);
  if (!about) return [];
  const related = findings.filter(
    (finding) =>
      (finding.type === 'split' || finding.type === 'divergence') &&
      (about.scenario === undefined || finding.scenario === about.scenario) &&
      (about.subject === undefined || finding.subject === about.subject) &&
      // A split blames none of the entry's providers, but it is about them too.
      (finding.type === 'split' || about.providers === undefined || (finding.provider !== undefined && about.providers.includes(finding.provider))),
  );
  const sameFacet = related.filter((finding) => finding.facet === about.facet);
  const found = sameFacet.length || about.subject === undefined ? sameFacet : related;
  return [...new Set(found.map((finding) => finding.id))].sort();
}

export function describeEntry(entry: AcceptedEntry): string {
  if (entry.id) return entry.id;
  return [`facet ${entry.facet}`, entry.subject && `subject ${entry.subject}`, entry.scenario && `scenario ${entry.scenario}`, entry.providers && `providers ${entry.providers.join(',')}`]
    .filter(Boolean)
    .join(', ');
}

/**
 * Marks the findings accepted entries cover (golden changes are never accepted: update the golden)
 * and returns the entries that matched nothing, as findings that fail only where `strict` (CI).
 */
export function applyAccepted(findings: Finding[], entries: AcceptedEntry[], options: { strict: boolean; file: string }): Finding[] {
  const used = new Set<number>();
  const out = findings.map((finding) => {
    if (finding.type === 'golden' || finding.type === 'error') return finding;
    const index = entries.findIndex((entry) => matches(entry, finding));
    if (index < 0) return finding;
    used.add(index);
    return { ...finding, accepted: { reason: entries[index]!.reason } };
  });
  entries.forEach((entry, index) => {
    if (used.has(index)) return;
    const successors = successorsOf(entry, findings);
    const shown = successors.slice(0, 3).join(', ') + (successors.length > 3 ? ` and ${successors.length - 3} more` : '');
    out.push({
      id: `accepted-stale:${index}`,
      type: 'accepted-stale',
      class: 'behavioral',
      subject: 'accepted',
      message: `entry ${index + 1} of ${options.file} (${describeEntry(entry)}) matches no finding any more`,
      hint: successors.length
        ? `what it accepted is now reported as ${shown}: replace the entry with one for that id if its reason still holds (drift accept '${successors[0]}' --reason "..."), else remove it`
        : 'remove the entry: what it accepted is gone',
      ...(options.strict ? {} : { accepted: { reason: 'stale entries fail only under CI' } }),
    });
  });
  return out;
}

