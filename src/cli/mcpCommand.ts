import { cachePolicy } from '../cache/policy.js';
import { projectRoot } from '../config/projectRoot.js';
import { InvalidArgumentError, type Command } from 'commander';
import type { Invocation } from './io.js';
import { globalOptions } from './context.js';

const parseSeconds = (value: string): number => {
  if (!/^[1-9]\d{0,4}$/.test(value)) throw new InvalidArgumentError('whole seconds from 1');
  return Number(value);
};

const parseKeep = (value: string): number => {
  if (!/^(0|[1-9]\d{0,4})$/.test(value)) throw new InvalidArgumentError('whole seconds from 0');
  return Number(value);
};

export function registerMcp(program: Command, cli: Invocation, version: string): void {
  program
    .command('mcp')
    .description("serve drift's judge to a coding agent as a Model Context Protocol server over stdio (docs/mcp.md)")
    .option('--deadline <seconds>', 'how long one rendering call may take before its functions are stopped', parseSeconds, 600)
    .option('--keep-functions <seconds>', "how long a provider's function process is kept idle between calls, while its code is the same (0: one per call)", parseKeep, 300)
    .action(async (options: { deadline: number; keepFunctions: number }, command: Command) => {
      const globals = globalOptions(command);
      // The SDK is loaded here only: no other command pays for it, and nothing but its transport writes to stdout.
      const { serveMcp } = await import('../mcp/server.js');
      cli.code = await serveMcp(
        { config: globals.config, cwd: cli.io.cwd, env: cli.io.env, policy: cli.policy, cache: cachePolicy(projectRoot(globals.config, cli.io.cwd), cli.io.env, { noCache: globals.cache === false }), deadlineMs: options.deadline * 1000, keepFunctionsMs: options.keepFunctions * 1000, ...(globals.concurrency !== undefined ? { concurrency: globals.concurrency } : {}) },
        version,
        cli.io.stderr,
        cli.io.stdout,
      );
    });
}
