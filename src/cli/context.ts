import type { Command } from 'commander';
import type { Project } from '../config/types.js';

export interface GlobalOptions {
  config?: string;
  verbose?: boolean;
  color?: boolean;
  concurrency?: number;
  /** False with --no-cache. */
  cache?: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** Loads the project the global --config names, with the global --concurrency applied. */
export async function fullProject(command: Command): Promise<Project> {
  const globals = globalOptions(command);
  // Loaded when a command runs, not at start: `drift --version` and `--help` need none of it.
  const { loadProject } = await import('../config/load.js');
  const project = await loadProject(globals.config);
  for (const warning of project.warnings ?? []) process.stderr.write(`${warning}\n`);
  if (globals.concurrency !== undefined) project.config.concurrency = globals.concurrency;
  if (globals.cache === false) project.answerCache = false;
  return project;
}

/** The project narrowed by --provider / --scenario filters. */
export async function projectFor(command: Command, providers?: string[], scenarios?: string[]): Promise<Project> {
  const project = await fullProject(command);
  const { selectProject } = await import('../config/load.js');
  return selectProject(project, providers, scenarios);
}

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
