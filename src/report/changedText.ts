import type { ChangedFile, ChangedRun } from './model.js';

/** Why a file that forces a full run does, in words; a kind a newer drift wrote is shown by its name. */
const WHY: Partial<Record<string, string>> = {
  scenario: 'a scenario',
  config: 'the config',
  accepted: 'accepted entries',
  conventions: 'the conventions',
  golden: 'a golden of no provider',
  shared: 'shared by the providers',
  drift: 'drift itself',
};

/** How many files, and providers, a sentence names before it says "and N more": it heads every report, so it stays short. */
const NAMED = 3;
const NAMED_PROVIDERS = 12;

/**
 * How text from the report reaches the sentence: the terminal prints it as it is, Markdown escapes
 * it (a report read back is untrusted: file names come from the pull request).
 */
export interface Quoting {
  file: (file: string) => string;
  name: (text: string) => string;
}

function listed(files: string[], quote: Quoting, label?: (file: string) => string): string {
  const shown = files.slice(0, NAMED).map((file) => `${quote.file(file)}${label ? label(file) : ''}`);
  const more = files.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)!}` : shown.join('');
}

/**
 * The one sentence that says what a `--changed` run compared with, which providers it rendered and
 * why: `since main (1a2b3c4d5e6f): rendered: eks (providers/eks/function/fn.py changed); others from goldens`.
 */
export function describeChanged(changed: ChangedRun, quote: Quoting): string {
  const since = `since ${quote.name(changed.ref)} (${quote.name(changed.base.slice(0, 12))})`;
  const ignored = changed.ignored > 0 ? `; ${changed.ignored} other changed file${changed.ignored === 1 ? '' : 's'} drift reads nothing from` : '';
  const forcing = changed.files.filter((entry) => entry.provider === undefined);
  if (changed.run === 'full') {
    if (forcing.length === 0) return `${since}: full run: every provider's own files changed${ignored}`;
    const kinds = new Map(forcing.map((entry) => [entry.file, entry.kind]));
    const why = (file: string) => ` (${WHY[kinds.get(file)!] ?? quote.name(kinds.get(file)!)})`;
    return `${since}: full run: ${listed(forcing.map((entry) => entry.file), quote, why)} changed${ignored}`;
  }
  if (changed.run === 'none') return `${since}: nothing drift reads changed; no provider rendered, every provider judged from its goldens${ignored}`;
  const byProvider = new Map<string, ChangedFile[]>();
  for (const entry of changed.files) if (entry.provider !== undefined) byProvider.set(entry.provider, [...(byProvider.get(entry.provider) ?? []), entry]);
  const providers = changed.rendered.slice(0, NAMED_PROVIDERS).map((provider) => `${quote.name(provider)} (${listed((byProvider.get(provider) ?? []).map((entry) => entry.file), quote)} changed)`);
  const more = changed.rendered.length - providers.length;
  return `${since}: rendered: ${providers.join(', ')}${more > 0 ? ` and ${more} more` : ''}; others from goldens${ignored}`;
}
