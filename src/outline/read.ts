import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import type { Adapter } from '../config/types.js';
import { DriftError } from '../errors.js';
import { GRAMMARS, parserFor } from './grammar.js';
import { buildOutline } from './outline.js';
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

export async function readSources(adapter: Adapter): Promise<SourceText[]> {
  // An adapter built in code may say nothing: the loader's default, the function's folder.
  const { root, include } = adapter.source ?? { root: adapter.function.cwd, include: ['**/*.py'] };
  const files = (await fg(include, { cwd: root, onlyFiles: true, ignore: ['**/node_modules/**', '**/__pycache__/**'] })).sort();
  const unknown = files.filter((file) => !(path.extname(file) in GRAMMARS));
  const languages = new Set(files.map((file) => path.extname(file)).filter((extension) => extension in GRAMMARS));
  if (unknown.length > 0 || languages.size > 1) {
    const known = Object.keys(GRAMMARS).join(', ');
    const what = unknown.length > 0 ? `${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', ...' : ''}: drift has no grammar for ${[...new Set(unknown.map((file) => path.extname(file) || 'extension-less'))].join(', ')} files` : `files in more than one language (${[...languages].join(', ')})`;
    throw new DriftError(
      `${adapter.file}: source.include matches ${what}. drift outlines ${known} source; point source.include (relative to ${path.relative(process.cwd(), root) || '.'}) at the provider's ${known} files, or add a grammar in src/outline/grammar.ts`,
    );
  }
  return files.map((file) => ({ path: file, text: readFileSync(path.join(root, file), 'utf8') }));
}
