/** The files the server reads for its answers, never outside the project it was started in. */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { DriftError } from '../errors.js';

/** `file` when it lies inside `root` (symlinks resolved); refused otherwise. */
export function insideProject(root: string, file: string): string {
  const real = (target: string) => (existsSync(target) ? realpathSync(target) : path.resolve(target));
  const relative = path.relative(real(root), real(file));
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new DriftError(`${file} is outside the project ${root}: drift mcp reads and writes only inside the project it was started in`);
  return file;
}

export function readProjectFile(root: string, file: string): string {
  insideProject(root, file);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new DriftError(`${path.relative(root, file)} does not exist yet: run drift contract (or the update tool for a new provider) to generate it`);
  }
}

/** Whether goldens/<provider>/ holds any golden. */
export function hasGoldens(goldensDir: string, provider: string): boolean {
  const dir = path.join(goldensDir, provider);
  return existsSync(dir) && readdirSync(dir).some((file) => file.endsWith('.yaml'));
}

/** Line `line` of `file` and the two after it, trimmed: what a place looks like. */
export function excerptAt(root: string, file: string, line: number): string | undefined {
  try {
    const lines = readFileSync(insideProject(root, file), 'utf8').split('\n');
    return lines.slice(line - 1, line + 2).join('\n').slice(0, 400);
  } catch {
    return undefined;
  }
}
