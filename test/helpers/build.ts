/**
 * Builds drift from the current sources into a private folder laid out like the published package
 * (package.json, bin/, dist/, schemas/ — the "files" npm ships), so CLI tests run the real compiled
 * binary without rewriting the shared dist/ while other test files execute it.
 */
import { copyFileSync, cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { REPO, tempDir } from './project.js';

export interface Build {
  /** `node <bin> ...` runs drift as a user would. */
  bin: string;
  remove: () => void;
}

export async function buildDrift(): Promise<Build> {
  const { dir, remove } = tempDir('drift-build-');
  try {
    const result = await execa('npx', ['tsc', '-p', '.', '--outDir', path.join(dir, 'dist')], { cwd: REPO, reject: false, all: true });
    if (result.exitCode !== 0) throw new Error(`npx tsc -p . failed:\n${result.all}`);
    mkdirSync(path.join(dir, 'bin'));
    copyFileSync(path.join(REPO, 'bin/drift.js'), path.join(dir, 'bin/drift.js'));
    copyFileSync(path.join(REPO, 'package.json'), path.join(dir, 'package.json'));
    cpSync(path.join(REPO, 'schemas'), path.join(dir, 'schemas'), { recursive: true });
    symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  } catch (error) {
    remove();
    throw error;
  }
  return { bin: path.join(dir, 'bin/drift.js'), remove };
}
