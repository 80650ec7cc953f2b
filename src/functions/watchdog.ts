/**
 * A watchdog per function process, for what drift's own handlers cannot cover: drift killed with
 * SIGKILL (an OOM kill, `timeout -s KILL`, a CI runner's hard stop) runs no handler at all.
 *
 * The watchdog is a tiny `sh` that blocks reading a pipe whose other end only drift holds. Whatever
 * ends drift, the kernel closes that end, the read returns, and the watchdog removes the function's
 * socket folder, then stops its process group (SIGTERM, up to one second's grace, SIGKILL), well
 * within two seconds. The socket folder goes first: nothing in it depends on the function, and on a
 * loaded machine the grace period alone could pass the two seconds. Why this and not the alternatives:
 * - a parent-death signal (prctl PR_SET_PDEATHSIG) has no Node API, is Linux-only, and reaches only
 *   the direct child, not what a wrapper (`uv run`, a shell script) starts, nor the socket folder;
 * - polling drift's pid costs a wake-up every interval and can be fooled by a reused pid, while a
 *   closed pipe is seen at once and cannot be.
 * The watchdog runs in its own process group, so neither a stop of the function's group nor a hard
 * kill of drift's group takes it down before it has cleaned up. On a normal stop drift kills it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';

// `read` returns at end of file: drift is gone. dash's kill takes no `--`, so the group is "-PGID".
const SCRIPT = [
  'read -r _ || :',
  'rm -rf "$2"',
  'kill -TERM "-$1" 2>/dev/null',
  'i=0',
  'while [ "$i" -lt 10 ] && kill -0 "-$1" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done',
  'kill -KILL "-$1" 2>/dev/null',
].join('\n');

/** Starts the watchdog of the process group `pgid` and its socket folder; it never keeps drift alive. */
export function startWatchdog(pgid: number, socketDir: string, searchPath: string | undefined): ChildProcess | undefined {
  try {
    const watchdog = spawn('/bin/sh', ['-c', SCRIPT, 'drift-watchdog', String(pgid), socketDir], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      // Only what sh needs: nothing of drift's environment (tokens included) reaches it.
      env: { PATH: searchPath ?? '/usr/bin:/bin' },
    });
    watchdog.on('error', () => {}); // without a watchdog drift still stops its functions itself
    watchdog.unref();
    (watchdog.stdin as Socket | null)?.unref();
    return watchdog;
  } catch {
    return undefined;
  }
}

/** Ends a watchdog whose function drift stopped itself: there is nothing left for it to do. */
export function stopWatchdog(watchdog: ChildProcess | undefined): void {
  if (!watchdog || watchdog.exitCode !== null || watchdog.signalCode !== null) return;
  try {
    watchdog.kill('SIGKILL');
  } catch {
    // Already gone.
  }
}
