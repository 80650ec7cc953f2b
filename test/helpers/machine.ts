/**
 * What a published text must never carry from this machine: its absolute paths (the project, the
 * repository and its Python environment, the home and temporary folders) and drift's secrets.
 */
import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { REPO } from './project.js';

/** The machine's folders a text may not name, each as given and as its real path. */
export function machineFolders(project: string): string[] {
  const venv = path.join(REPO, '.venv');
  const folders = [project, REPO, venv, tmpdir(), '/tmp', homedir(), process.env.HOME ?? homedir()];
  return [...new Set(folders.flatMap((folder) => [folder, realpathSync(folder)]))].filter((folder) => folder !== '/');
}

/** The first machine path or secret `text` holds, or undefined: a folder counts followed by `/` or standing alone (not as a prefix of another name). */
export function leakIn(text: string, project: string, secrets: readonly string[]): string | undefined {
  for (const secret of secrets) if (text.includes(secret)) return secret;
  for (const folder of machineFolders(project)) {
    const escaped = folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const found = new RegExp(`${escaped}(?![\\w.-])`).exec(text);
    if (found) return `${folder} in …${text.slice(Math.max(0, found.index - 60), found.index + folder.length + 20)}…`;
  }
  return undefined;
}
