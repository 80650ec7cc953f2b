/**
 * Vitest's global set-up: builds drift once from the current sources, before any test file runs, so
 * no CLI test can run a stale dist/. The build goes to a private folder laid out like the published
 * package (package.json, bin/, dist/, schemas/, queries/: the "files" npm ships), so the run never rewrites the
 * developer's dist/ and the CLI finds what it needs the way an installed drift does.
 */
import { copyFileSync, cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import type { TestProject } from 'vitest/node';
import { REPO, tempDir } from './helpers/project.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** bin/drift.js of this run's build; read it with driftBin() from test/helpers/drift.ts. */
    driftBin: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const { dir, remove } = tempDir('drift-build-');
  try {
    const tsc = path.join(REPO, 'node_modules/.bin/tsc');
    const result = await execa(tsc, ['-p', 'tsconfig.json', '--outDir', path.join(dir, 'dist')], { cwd: REPO, reject: false, all: true });
    if (result.exitCode !== 0) throw new Error(`tsc -p tsconfig.json failed:\n${result.all}`);
    mkdirSync(path.join(dir, 'bin'));
    copyFileSync(path.join(REPO, 'bin/drift.js'), path.join(dir, 'bin/drift.js'));
    copyFileSync(path.join(REPO, 'package.json'), path.join(dir, 'package.json'));
    cpSync(path.join(REPO, 'schemas'), path.join(dir, 'schemas'), { recursive: true });
    cpSync(path.join(REPO, 'queries'), path.join(dir, 'queries'), { recursive: true });
    symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    // The rest of `npm run build`: drift's own schemas compiled to validators, as a published drift has them.
    const schemas = await execa('node', [path.join(REPO, 'scripts/compile-schemas.mjs'), path.join(dir, 'dist')], { cwd: REPO, reject: false, all: true });
    if (schemas.exitCode !== 0) throw new Error(`scripts/compile-schemas.mjs failed:\n${schemas.all}`);
  } catch (error) {
    remove();
    throw error;
  }
  project.provide('driftBin', path.join(dir, 'bin/drift.js'));
  return remove;
}
