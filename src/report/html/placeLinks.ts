/**
 * Where a page's places link to. A place is `file:line` relative to the project root (a finding's
 * `where`); the page links it to the file at a commit on GitHub (in CI: the pull request's head) or,
 * for a page read beside the checkout, to the file by a relative path. Which one is decided at the
 * CLI's edge and passed in: nothing here reads the environment.
 */

export type LinkBase =
  /** `https://github.com/OWNER/NAME/blob/SHA`: a place becomes `<blob>/<file>#L<line>`. */
  | { kind: 'blob'; url: string }
  /** The path from the page's folder to the project root (`''`, `../`): a place becomes `<prefix><file>`. */
  | { kind: 'relative'; prefix: string };

export interface Place {
  /** As the report says it: `providers/aks/function/composer.py:184`. */
  text: string;
  file: string;
  line?: number;
  /** Absent when the file is not a plain relative path drift would write (nothing to link safely). */
  href?: string;
}

/** A `where` entry: `file:line`, or `<provider>: file:line` for the provider that follows the convention. */
export function parseWhere(entry: string): { provider?: string; place: string } {
  const named = /^([A-Za-z0-9][A-Za-z0-9._-]*): (.+)$/.exec(entry);
  return named ? { provider: named[1]!, place: named[2]! } : { place: entry };
}

// A path drift writes: relative, `/`-separated, no `..`, no scheme, nothing a URL would read as syntax.
const PLAIN_FILE = /^(?!\/)(?![A-Za-z][A-Za-z0-9+.-]*:)[A-Za-z0-9._@+ -]+(?:\/[A-Za-z0-9._@+ -]+)*$/;

export function placeOf(text: string, base: LinkBase): Place {
  const match = /^(.*?)(?::(\d+))?(?::\d+)?$/.exec(text)!;
  const file = match[1]!;
  const line = match[2] === undefined ? undefined : Number(match[2]);
  const plain = PLAIN_FILE.test(file) && !file.split('/').some((segment) => segment === '..' || segment === '.');
  if (!plain) return { text, file, ...(line !== undefined ? { line } : {}) };
  const encoded = file.split('/').map(encodeURIComponent).join('/');
  const href = base.kind === 'blob' ? `${base.url}/${encoded}${line !== undefined ? `#L${line}` : ''}` : `${base.prefix}${encoded}`;
  return { text, file, ...(line !== undefined ? { line } : {}), href };
}
