import type { Policy } from '../util/ci.js';
import type { CachePolicy } from '../cache/policy.js';
import type { Environment } from '../util/envVars.js';
import { escapeTerminal } from '../util/terminal.js';

/**
 * What one CLI invocation talks to: its output streams, working folder and environment, passed in
 * from the edge (bin/drift.js) so that `main` runs in-process as often as a test likes, with no
 * global left behind.
 */
export interface Output {
  write(text: string): unknown;
  /** A terminal: colors and live progress only then. */
  readonly isTTY?: boolean;
  /** The stream past the terminal escaper (terminalSafe): only for drift's own cursor moves (live progress). */
  readonly raw?: Output;
  /** A stream's 'drain', for writers that wait for it (the MCP transport). */
  once?(event: 'drain', listener: () => void): unknown;
}

export interface Io {
  stdout: Output;
  stderr: Output;
  cwd: string;
  env: Environment;
}

/**
 * `io` whose stdout and stderr show control characters as escapes (util/terminal.ts), drift's own
 * colours kept on a terminal: every byte drift prints passes here, whatever command prints it.
 */
export function terminalSafe(io: Io): Io {
  const safe = (output: Output): Output => {
    if (output.raw) return output;
    const styles = output.isTTY === true;
    return {
      write: (text: string) => output.write(typeof text === 'string' ? escapeTerminal(text, { styles }) : text),
      ...(output.isTTY !== undefined ? { isTTY: output.isTTY } : {}),
      raw: output,
      ...(typeof output.once === 'function' ? { once: (event: 'drain', listener: () => void) => output.once!(event, listener) } : {}),
    };
  };
  return { ...io, stdout: safe(io.stdout), stderr: safe(io.stderr) };
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
