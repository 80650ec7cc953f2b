import path from 'node:path';
import type { Command } from 'commander';
import { cachePolicy, type CachePolicy } from '../cache/policy.js';
import { projectRoot } from '../config/projectRoot.js';
import type { Project } from '../config/types.js';
import type { Invocation } from './io.js';

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

/** Loads the project the global --config names, with the global --concurrency in place of the config's. */
export async function fullProject(command: Command, cli: Invocation): Promise<Project> {
  const globals = globalOptions(command);
  // Loaded when a command runs, not at start: `drift --version` and `--help` need none of it.
  const { loadProject, withRunOptions } = await import('../config/load.js');
  const project = await loadProject(globals.config, cli.io.cwd, cli.io.env, cli.policy, runCachePolicy(command, cli));
  for (const warning of project.warnings ?? []) cli.io.stderr.write(`${warning}\n`);
  return withRunOptions(project, { concurrency: globals.concurrency });
}

/**
 * The run's cache policy from `--no-cache`, `--config` and the environment, resolved once per run and
 * kept on the invocation: main() prunes what it names when the run ends.
 */
export function runCachePolicy(command: Command, cli: Invocation): CachePolicy {
  const globals = globalOptions(command);
  cli.cache ??= cachePolicy(projectRoot(globals.config, cli.io.cwd), cli.io.env, { noCache: globals.cache === false });
  return cli.cache;
}

/** The project narrowed by --provider / --scenario filters. */
export async function projectFor(command: Command, cli: Invocation, providers?: string[], scenarios?: string[]): Promise<Project> {
  const project = await fullProject(command, cli);
  const { selectProject } = await import('../config/load.js');
  return selectProject(project, providers, scenarios);
}

/** A path as the user sees it: relative to the folder drift runs in. */
export const shownPath = (cli: Invocation, file: string): string => path.relative(cli.io.cwd, file) || file;

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
