import { rmSync } from 'node:fs';
import type { ResultPromise } from 'execa';

/**
 * Every function process drift started, with the private folder holding its socket, so none
 * survives drift: not on a normal exit, an error, or Ctrl-C. Processes run in their own groups, so
 * the terminal's SIGINT does not reach them.
 */
const live = new Map<ResultPromise, string | undefined>();
let installed = false;

function killAll(): void {
  for (const [child, socketDir] of live) {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
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
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}

/** Tracks a child and, when given, the private folder of its socket: both go when drift does. */
export function track(child: ResultPromise, socketDir?: string): void {
  install();
  live.set(child, socketDir);
}

export function untrack(child: ResultPromise): void {
  live.delete(child);
}
