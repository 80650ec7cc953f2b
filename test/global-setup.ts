/**
 * Vitest's global set-up: a build of drift from the current sources, before any test file runs, so
 * no CLI test can run a stale dist/. It lives in a private folder laid out like the published package
 * (package.json, bin/, dist/, schemas/, queries/: the "files" npm ships), so the run never rewrites the
 * developer's dist/ and the CLI finds what it needs the way an installed drift does. When dist/ was
 * built from exactly these sources (`npm test` builds first; scripts/source-stamp.mjs), it is copied
 * instead of compiled again.
 */
import { copyFileSync, cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import type { TestProject } from 'vitest/node';
import { REPO, tempDir } from './helpers/project.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** bin/drift.js of this run's build; read it with driftBin() from test/helpers/drift.ts. */
    driftBin: string;
    /**
     * The answer cache every in-process CLI test shares (test/helpers/drift.ts): renders of a provider
     * whose function, environment and adapter are unchanged replay from it; a seeded change is a new key.
     */
    answerCache: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const { dir, remove } = tempDir('drift-build-');
  try {
    const reuse = await builtFromTheseSources();
    if (reuse) cpSync(path.join(REPO, 'dist'), path.join(dir, 'dist'), { recursive: true, preserveTimestamps: true });
    else await compile(path.join(dir, 'dist'));
    cpSync(path.join(REPO, 'bin'), path.join(dir, 'bin'), { recursive: true });
    copyFileSync(path.join(REPO, 'package.json'), path.join(dir, 'package.json'));
    cpSync(path.join(REPO, 'schemas'), path.join(dir, 'schemas'), { recursive: true });
    cpSync(path.join(REPO, 'queries'), path.join(dir, 'queries'), { recursive: true });
    symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    if (!reuse) await compileSchemas(path.join(dir, 'dist'));
  } catch (error) {
    remove();
    throw error;
  }
  project.provide('driftBin', path.join(dir, 'bin/drift.js'));
  project.provide('answerCache', answerCache());
  return remove;
}

/**
 * The answer cache of in-process CLI tests, kept between runs in .cache/answers (gitignored; delete
 * .cache/ to start cold): an answer depends only on the function's source tree, its environment, the
 * adapter and the request's bytes, all in its key (src/functions/answerKey.ts), so a run may replay
 * what an earlier run rendered, exactly as a user's drift does; a seeded edit is always a new key.
 */
function answerCache(): string {
  const folder = path.join(REPO, '.cache', 'answers');
  mkdirSync(folder, { recursive: true });
  return folder;
}

async function builtFromTheseSources(): Promise<boolean> {
  const { built } = (await import(pathToFileURL(path.join(REPO, 'scripts/source-stamp.mjs')).href)) as { built: () => boolean };
  return built();
}

async function compile(dist: string): Promise<void> {
  const tsc = path.join(REPO, 'node_modules/.bin/tsc');
  const result = await execa(tsc, ['-p', 'tsconfig.json', '--outDir', dist], { cwd: REPO, reject: false, all: true });
  if (result.exitCode !== 0) throw new Error(`tsc -p tsconfig.json failed:\n${result.all}`);
}

/** The rest of `npm run build`: drift's own schemas compiled to validators and the CLI's bundle, as a published drift has them. */
async function compileSchemas(dist: string): Promise<void> {
  for (const script of ['scripts/compile-schemas.mjs', 'scripts/bundle.mjs']) {
    const result = await execa('node', [path.join(REPO, script), dist], { cwd: REPO, reject: false, all: true });
    if (result.exitCode !== 0) throw new Error(`${script} failed:\n${result.all}`);
  }
}
