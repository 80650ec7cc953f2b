import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { packageFile } from '../config/paths.js';
import { pruneAfterRun } from '../cache/prune.js';
import { keepScalarCache } from '../config/scalarCache.js';
import { DriftError } from '../errors.js';
import { resolvePolicy } from '../util/ci.js';
import { registerAccept } from './acceptCommand.js';
import { registerComment } from './commentCommand.js';
import { registerContract } from './contractCommand.js';
import { registerDiff } from './diffCommand.js';
import { registerExpect } from './expectCommand.js';
import { registerExplain } from './explainCommand.js';
import { registerFacets } from './facetsCommand.js';
import { processIo, terminalSafe, type Invocation, type Io } from './io.js';
import { registerList } from './listCommand.js';
import { registerMcp } from './mcpCommand.js';
import { registerLock } from './lockCommand.js';
import { registerMigrate } from './migrateCommand.js';
import { registerNewProvider } from './newProviderCommand.js';
import { registerRender } from './renderCommand.js';
import { registerReport } from './reportCommand.js';
import { registerRules } from './rulesCommand.js';
import { registerUpdate } from './updateCommand.js';

function parseConcurrency(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('a whole number from 1');
  return Number(value);
}

/** The version of the installed package, as npm and `drift --version` name it. */
function version(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}

export function buildProgram(cli: Invocation): Command {
  const program = new Command()
    .name('drift')
    .version(version(), '-V, --version', 'print the version of drift')
    .description('Render every provider of one contract against the same scenarios and diff what they do.')
    .option('-c, --config <file>', 'drift.config.yaml to use (default: ./drift.config.yaml, else defaults); `migrate` takes several that share one accepted list', (file: string) => {
      // Every one given, in order, for `drift migrate -c a -c b`; the others use the last, as before.
      cli.configs = [...(cli.configs ?? []), file];
      return file;
    })
    .option('-v, --verbose', 'print timings and more detail')
    .option('--no-color', 'never color the output')
    .option('-j, --concurrency <n>', 'provider functions running at once (default: the config, else the CPU count)', parseConcurrency)
    .option('--no-cache', 'read and write no cache (answers, cells, outlines, validators, documents, scalar decisions, compiled code, parsed goldens), as DRIFT_NO_CACHE=1: every function runs, every file is parsed (see docs/caches.md)')
    .configureOutput({ writeOut: (text) => cli.io.stdout.write(text), writeErr: (text) => cli.io.stderr.write(text) })
    .showHelpAfterError()
    .exitOverride();
  for (const register of [registerList, registerRender, registerDiff, registerUpdate, registerAccept, registerRules, registerFacets, registerContract, registerLock, registerMigrate, registerExpect, registerExplain, registerNewProvider, registerComment, registerReport]) {
    register(program, cli);
  }
  registerMcp(program, cli, version());
  return program;
}

/** Runs the CLI and returns the exit code: 0 clean, 1 findings, 2 drift could not do its job. */
export async function main(argv: string[], given: Io = processIo()): Promise<number> {
  // Whatever a command prints, ids and function output included, reaches the terminal escaped.
  const io = terminalSafe(given);
  // The one place drift decides from its environment what it may write and how it runs (util/ci.ts).
  const cli: Invocation = { io, policy: resolvePolicy(io.env, io.stderr.isTTY === true), code: 0 };
  try {
    await buildProgram(cli).parseAsync(argv);
    // What this run asked the yaml library, for the next process (config/scalarCache.ts).
    keepScalarCache(cli.cache);
    // The one pruner, after every run that may have written to the cache (cache/prune.ts).
    if (cli.cache?.enabled) pruneAfterRun(cli.cache.folder);
    return cli.code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof DriftError) {
      io.stderr.write(`drift: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`drift: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 2;
  }
}
