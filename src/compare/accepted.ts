import type { Finding } from './findings.js';

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
  return true;
}

/**
 * The findings that took over a stale entry's facet: a divergence that became a split when its
 * convention went away (or the reverse), so the hint can name the id to accept instead.
 */
function successorsOf(entry: AcceptedEntry, findings: Finding[]): string[] {
  const facetId = (finding: Finding) => `${finding.scenario}:${finding.subject}:${finding.facet}`;
  const found = findings.filter((finding) => {
    if (finding.type !== 'split' && finding.type !== 'divergence') return false;
    if (entry.id !== undefined) {
      if (entry.id.startsWith('div:')) return finding.type === 'split' && entry.id.startsWith(`div:${facetId(finding)}:`);
      if (entry.id.startsWith('split:')) return finding.type === 'divergence' && entry.id === `split:${facetId(finding)}`;
      return false;
    }
    // A facet entry names providers when it accepted divergences; a split blames none of them.
    return finding.type === 'split' && matches({ ...entry, providers: undefined }, finding);
  });
  return [...new Set(found.map((finding) => finding.id))].sort();
}

function describe(entry: AcceptedEntry): string {
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
      message: `entry ${index + 1} of ${options.file} (${describe(entry)}) matches no finding any more`,
      hint: successors.length
        ? `the same facet is now reported as ${shown}: replace the entry with one for that id if its reason still holds (drift accept '${successors[0]}' --reason "..."), else remove it`
        : 'remove the entry: what it accepted is gone',
      ...(options.strict ? {} : { accepted: { reason: 'stale entries fail only under CI' } }),
    });
  });
  return out;
}

