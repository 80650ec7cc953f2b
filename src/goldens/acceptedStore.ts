import { existsSync } from 'node:fs';
import type { AcceptedEntry } from '../compare/acceptance.js';
import { packageFile } from '../config/paths.js';
import type { Project } from '../config/types.js';
import { readYamlFile } from '../config/yamlFile.js';
import { GoldenStore } from './store.js';

/** goldens/accepted.yaml of a project. */
export function acceptedPath(project: Project): string {
  return GoldenStore.of(project).acceptedFile;
}

/** The entries of goldens/accepted.yaml, validated; none when the file does not exist. */
export function loadAccepted(project: Project): AcceptedEntry[] {
  const file = acceptedPath(project);
  if (!existsSync(file)) return [];
  return readYamlFile<{ accepted: AcceptedEntry[] }>(file, packageFile('schemas/accepted.schema.json'), { cache: project.cache }).accepted;
}
