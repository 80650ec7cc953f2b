/** Temp folders and projects for tests: everything written under the OS temp folder, removed by the caller. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

/** The drift repository (this file lives in test/helpers). */
export const REPO = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
export const BROKEN = path.join(REPO, 'test/fixtures/broken');
export const BROKEN_NAMES = ['crash', 'exit-zero', 'fatal', 'garbage', 'hang'] as const;

export function brokenAdapter(name: (typeof BROKEN_NAMES)[number]): string {
  return path.join(BROKEN, name, 'provider.yaml');
}

/** A fresh temp folder; call `remove` when done. */
export function tempDir(prefix = 'drift-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes files (relative path -> text) under `dir`, creating folders; returns their absolute paths. */
export function writeFiles(dir: string, files: Record<string, string>): Record<string, string> {
  const written: Record<string, string> = {};
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    written[relative] = file;
  }
  return written;
}

export interface TempConfig {
  providers: string | string[];
  scenarios: string | string[];
  concurrency?: number;
  maxSteps?: number;
  timeouts?: { startMs?: number; callMs?: number };
  [key: string]: unknown;
}

/** A temp folder holding a drift.config.yaml; absolute globs keep the real repository's files in place. */
export function tempProject(config: TempConfig): { dir: string; configFile: string; remove: () => void } {
  const { dir, remove } = tempDir('drift-project-');
  const configFile = writeFiles(dir, { 'drift.config.yaml': stringify(config) })['drift.config.yaml']!;
  return { dir, configFile, remove };
}
