import { rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { stopWatchdog } from './watchdog.js';

/**
 * Every function process drift started, with the private folder holding its socket, so none
 * survives drift: not on a normal exit, an error, or Ctrl-C. Processes run in their own groups, so
 * the terminal's SIGINT does not reach them. SIGKILL runs no handler: each function's watchdog
 * (watchdog.ts) covers that.
 */
interface Tracked {
  socketDir: string | undefined;
  watchdog: ChildProcess | undefined;
}
const live = new Map<ChildProcess, Tracked>();
/** The exit code of a shell's `128 + signal number`, as for a process the signal killed. */
const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
let installed = false;

function killAll(): void {
  for (const [child, { socketDir, watchdog }] of live) {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    stopWatchdog(watchdog);
    if (socketDir !== undefined) {
      try {
        rmSync(socketDir, { recursive: true, force: true });
      } catch {
        // Nothing more to do on the way out.
      }
    }
  }
  live.clear();
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAll);
  for (const signal of Object.keys(SIGNAL_EXIT) as Array<keyof typeof SIGNAL_EXIT>) {
    process.once(signal, () => {
      killAll();
      process.exit(SIGNAL_EXIT[signal]);
    });
  }
}

/** Tracks a child and, when given, the private folder of its socket: both go when drift does. */
export function track(child: ChildProcess, socketDir?: string, watchdog?: ChildProcess): void {
  install();
  live.set(child, { socketDir, watchdog });
}

export function untrack(child: ChildProcess): void {
  live.delete(child);
}
