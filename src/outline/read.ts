import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import type { Adapter } from '../config/types.js';
import { DriftError, InputError } from '../errors.js';
import { bytes, MAX_SOURCE_BYTES, MAX_SOURCE_DEPTH } from '../util/limits.js';
import { tooDeep } from './bounds.js';
import { GRAMMARS, parserFor } from './grammar.js';
import { buildOutline } from './outline.js';
import { keepParsed } from './parsed.js';
import type { OutlineResult, SourceText } from './types.js';

/**
 * Edge module: finds and reads a provider's source (the adapter's `source`, default every Python file
 * under the function's folder) and outlines it. Returns undefined when no file matches: a provider
 * drift cannot read has no outline, and its behaviour is still compared.
 */
export async function outlineAdapter(adapter: Adapter): Promise<OutlineResult | undefined> {
  const sources = await readSources(adapter);
  if (sources.length === 0) return undefined;
  const parse = await parserFor(path.extname(sources[0]!.path));
  return buildOutline(adapter.name, sources, parse);
}

/**
 * `depth: false` leaves the nesting check to the caller (checkDepth): a caller holding the outline of
 * exactly these texts from its cache knows they passed it, and parsing every file again is what it saves.
 */
export async function readSources(adapter: Adapter, { depth = true }: { depth?: boolean } = {}): Promise<SourceText[]> {
  // An adapter built in code may say nothing: the loader's default, the function's folder.
  const { root, include } = adapter.source ?? { root: adapter.function.cwd, include: ['**/*.py'] };
  // Never through a symlinked folder: a root holding a link to / would glob the whole machine.
  const files = (await fg(include, { cwd: root, onlyFiles: true, followSymbolicLinks: false, ignore: ['**/node_modules/**', '**/__pycache__/**'] })).sort();
  const unknown = files.filter((file) => !(path.extname(file) in GRAMMARS));
  const languages = new Set(files.map((file) => path.extname(file)).filter((extension) => extension in GRAMMARS));
  if (unknown.length > 0 || languages.size > 1) {
    const known = Object.keys(GRAMMARS).join(', ');
    const what = unknown.length > 0 ? `${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', ...' : ''}: drift has no grammar for ${[...new Set(unknown.map((file) => path.extname(file) || 'extension-less'))].join(', ')} files` : `files in more than one language (${[...languages].join(', ')})`;
    throw new DriftError(
      `${adapter.file}: source.include matches ${what}. drift outlines ${known} source; point source.include (relative to ${path.relative(process.cwd(), root) || '.'}) at the provider's ${known} files, or add a grammar in src/outline/grammar.ts`,
    );
  }
  const sources = files.map((file) => ({ path: file, text: readBounded(adapter, root, file) }));
  if (depth && sources.length > 0) await checkDepth(root, sources);
  return sources;
}

/** A source file, refused when a symlink takes it out of the source root or it is past MAX_SOURCE_BYTES. */
function readBounded(adapter: Adapter, root: string, file: string): string {
  const absolute = path.join(root, file);
  const real = realpathSync(absolute);
  const realRoot = realpathSync(root);
  if (!real.startsWith(`${realRoot}${path.sep}`)) {
    throw new InputError(absolute, 1, 1, `is a symlink to ${real}, outside the source root ${root} of ${adapter.file}: drift reads a provider's source only inside its root (docs/limits.md); copy the file in or narrow source.include`);
  }
  const size = statSync(real).size;
  if (size > MAX_SOURCE_BYTES) throw new InputError(absolute, 1, 1, `has ${size} bytes, more than the ${bytes(MAX_SOURCE_BYTES)} drift outlines in one source file (docs/limits.md); leave it out with source.include`);
  return readFileSync(real, 'utf8');
}

/** Refuses, before anything renders, a file nested deeper than the outline can walk, naming the place. */
export async function checkDepth(root: string, sources: SourceText[]): Promise<void> {
  const parse = await parserFor(path.extname(sources[0]!.path));
  for (const source of sources) {
    const parsed = parse(source.text);
    let deep;
    try {
      deep = tooDeep(parsed.tree);
    } catch (error) {
      parsed.tree.delete();
      throw error;
    }
    if (!deep) {
      // The outline takes this tree (parsed.ts): one parse per file.
      keepParsed(source, parsed);
      continue;
    }
    parsed.tree.delete();
    throw new InputError(path.join(root, source.path), deep.line, deep.column, `nested deeper than ${MAX_SOURCE_DEPTH} syntax levels, drift's limit for a source file (docs/limits.md); flatten the code here`);
  }
}
