import type { Command } from 'commander';
import { loadProject, selectProject } from '../config/load.js';
import type { Project } from '../config/types.js';

export interface GlobalOptions {
  config?: string;
  verbose?: boolean;
  color?: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** Loads the project the global --config names, narrowed by --provider / --scenario filters. */
export async function projectFor(command: Command, providers?: string[], scenarios?: string[]): Promise<Project> {
  return selectProject(await loadProject(globalOptions(command).config), providers, scenarios);
}

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
