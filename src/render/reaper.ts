import type { ResultPromise } from 'execa';

/**
 * Every function process drift started, so none survives drift: not on a normal exit, an error,
 * or Ctrl-C. Processes run in their own groups, so the terminal's SIGINT does not reach them.
 */
const live = new Set<ResultPromise>();
let installed = false;

function killAll(): void {
  for (const child of live) {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
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

export function track(child: ResultPromise): void {
  install();
  live.add(child);
}

export function untrack(child: ResultPromise): void {
  live.delete(child);
}
