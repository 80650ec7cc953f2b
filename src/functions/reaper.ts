import { rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { stopWatchdog } from './watchdog.js';

/**
 * Every function process drift started, with the private folder holding its socket, so none
 * survives drift: not on a normal exit, an error, or Ctrl-C. Processes run in their own groups, so
 * the terminal's SIGINT does not reach them. The signal and exit handlers that call stopAll are
 * bin/drift.js's, installed before anything is spawned; SIGKILL runs no handler: each function's
 * watchdog (watchdog.ts) covers that.
 */
interface Tracked {
  socketDir: string | undefined;
  watchdog: ChildProcess | undefined;
}
const live = new Map<ChildProcess, Tracked>();

/** Kills every tracked function's group and removes its socket folder, synchronously: it runs on the way out. */
export function stopAll(): void {
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

/** Tracks a child and, when given, the private folder of its socket: both go when drift does. */
export function track(child: ChildProcess, socketDir?: string, watchdog?: ChildProcess): void {
  live.set(child, { socketDir, watchdog });
}

export function untrack(child: ChildProcess): void {
  live.delete(child);
}

/**
 * A test-only pause before drift spawns its first function, set by bin/drift.js from
 * DRIFT_TEST_PAUSE_BEFORE_SPAWN_MS, so a test can signal drift in the window where nothing of its own
 * is running yet and prove the handlers are there. Unset, it costs nothing.
 */
let hold: { ms: number; announce: () => void } | undefined;
export function holdFirstSpawn(ms: number, announce: () => void): void {
  hold = { ms, announce };
}

export async function pauseBeforeFirstSpawn(): Promise<void> {
  if (!hold) return;
  const { ms, announce } = hold;
  hold = undefined;
  announce();
  await new Promise((resolve) => setTimeout(resolve, ms));
}
