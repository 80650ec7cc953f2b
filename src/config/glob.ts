import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The config's globs as fast-glob expands them with `{ absolute: true, onlyFiles: true,
 * followSymbolicLinks: false }`, for the patterns drift's configs use: segments of names, `*` and
 * `?`. Loading fast-glob and its ~45 modules cost `drift list` about a fifth of its CPU; a pattern
 * with anything more (`**`, braces, classes, extglobs, escapes, `..` after a wildcard) is not
 * simple (isSimpleGlob) and is left to fast-glob.
 *
 * What fast-glob does, done alike: the folder before the first wildcard is resolved as any path
 * (symlinks followed); below it a symlink is neither descended nor matched; a wildcard matches no
 * name starting with a dot; names compare case-sensitively.
 */
export function simpleGlob(pattern: string, cwd: string): string[] {
  const segments = pattern.split('/');
  const first = segments.findIndex(isWild);
  if (first < 0) return staticMatch(path.resolve(cwd, pattern));
  const rest = segments.slice(first).filter((segment) => segment !== '');
  let found = [path.resolve(cwd, segments.slice(0, first).join('/') || '.')];
  rest.forEach((segment, index) => {
    const last = index === rest.length - 1;
    const matches = isWild(segment) ? segmentPattern(segment) : undefined;
    found = found.flatMap((folder) =>
      entries(folder)
        .filter((entry) => (matches ? matches.test(entry.name) : entry.name === segment) && (last ? entry.isFile() : entry.isDirectory()))
        .map((entry) => path.join(folder, entry.name)),
    );
  });
  return found;
}

/** Whether simpleGlob expands `pattern` as fast-glob would; else fast-glob must. */
export function isSimpleGlob(pattern: string): boolean {
  if (/[\\[\]{}()!+@]/.test(pattern) || pattern.includes('**')) return false;
  const segments = pattern.split('/');
  const first = segments.findIndex(isWild);
  return first < 0 || !segments.slice(first).some((segment) => segment === '.' || segment === '..');
}

/** A segment (or a simple pattern) with a wildcard. */
export const isWild = (segment: string): boolean => segment.includes('*') || segment.includes('?');

/** A pattern without wildcards: the file itself, when it is one (a symlink is not). */
function staticMatch(file: string): string[] {
  try {
    return lstatSync(file).isFile() ? [file] : [];
  } catch {
    return [];
  }
}

function entries(folder: string) {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

function segmentPattern(segment: string): RegExp {
  const body = segment.replace(/[.+^$|]/g, '\\$&').replaceAll('*', '[^/]*').replaceAll('?', '[^/]');
  return new RegExp(segment.startsWith('.') ? `^${body}$` : `^(?!\\.)${body}$`);
}
