/**
 * A throwaway project around the leaky fixture (test/fixtures/leaky): a function that prints what it
 * sees (its environment, this machine's paths, LEAKY_SAY) as an event, a Fatal result or an import
 * error, by LEAKY_MODE. For the tests of the function's environment and of redaction.
 */
import { cpSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG, REPO, tempDir, writeFiles } from './project.js';

export const LEAKY_SCENARIO = 'description: One pool.\nxr:\n  nodePools: [{name: gpu, nodeCount: 1}]\n';

export function leakyProject(): { dir: string; remove: () => void } {
  const { dir, remove } = tempDir('drift-leaky-');
  cpSync(path.join(REPO, 'test/fixtures/leaky'), path.join(dir, 'providers/leaky'), { recursive: true, filter: (source) => path.basename(source) !== '__pycache__' });
  symlinkSync(path.join(REPO, '.venv'), path.join(dir, '.venv'), 'dir');
  writeFiles(dir, { 'drift.config.yaml': DEFAULT_CONFIG, 'scenarios/one.yaml': LEAKY_SCENARIO });
  return { dir, remove };
}
