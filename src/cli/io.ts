import type { Policy } from '../util/ci.js';
import type { CachePolicy } from '../cache/policy.js';
import type { Environment } from '../util/envVars.js';

/**
 * What one CLI invocation talks to: its output streams, working folder and environment, passed in
 * from the edge (bin/drift.js) so that `main` runs in-process as often as a test likes, with no
 * global left behind.
 */
export interface Output {
  write(text: string): unknown;
  /** A terminal: colors and live progress only then. */
  readonly isTTY?: boolean;
}

export interface Io {
  stdout: Output;
  stderr: Output;
  cwd: string;
  env: Environment;
}

/** The real process's streams, folder and environment. */
export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env };
}

/**
 * One run of a command: its io, its policy (resolved once from them by `main`) and the exit code it
 * settles on. Each command's action sets `code`; `main` returns it.
 */
export interface Invocation {
  readonly io: Io;
  readonly policy: Policy;
  code: number;
  /** Every `--config` given, in order (`drift migrate -c a -c b`); the other commands use the last. */
  configs?: string[];
  /** The run's cache policy, once a command resolved it (context.ts); main() prunes its folder at the end. */
  cache?: CachePolicy;
}
