/**
 * The one writer of every file drift writes (goldens, accepted.yaml, conventions.yaml, the generated
 * contract, drafted adapters, reports): the text goes to a temporary file beside the target, is
 * flushed to disk, and is renamed over the target, so a reader (or a drift killed mid-write) never
 * sees half a file. A kill between write and rename leaves the temporary file; `sweepLeftovers`,
 * which every writing command runs, removes those whose writer is gone. `.gitignore` ignores them.
 * A signal that arrives while a write is held (`holdWrites`, `writeGuard`) waits for it: bin/drift.js's
 * handlers defer their exit until the last hold is released.
 */
import { closeSync, existsSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** `<target>.drift-tmp-<pid>`: whose write it was, so a sweep never removes a running drift's. */
export const TEMPORARY_MARK = '.drift-tmp-';
const TEMPORARY = /\.drift-tmp-(\d+)$/;
/** What drift before the one writer left (`accepted.yaml.tmp-<pid>`, `CONTRACT.md.tmp-<pid>`), swept the same way. */
const LEGACY_TEMPORARY = /\.(yaml|md|json)\.tmp-(\d+)$/;

/**
 * Writes in progress, counted, and what to do once none is: bin/drift.js's signal handlers ask
 * `held()` and, while it is true, leave their exit to `afterWrites`, so Ctrl-C never cuts a
 * command's writes short and is never lost (drift then exits 128 + the signal's number). One file's
 * write holds itself; a command whose writes span an await (the goldens, then the contract) holds
 * them together.
 */
let held = 0;
let whenReleased: (() => void) | undefined;

/** Holds writes until the returned release is called (once; later calls do nothing). */
export function holdWrites(): () => void {
  held += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held -= 1;
    if (held > 0 || !whenReleased) return;
    const then = whenReleased;
    whenReleased = undefined;
    then();
  };
}

/** Runs `work` with writes held: a signal that comes during it ends drift once it is done, never in its middle. */
export async function holdingWrites<T>(work: () => Promise<T> | T): Promise<T> {
  const release = holdWrites();
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * Test-only (DRIFT_TEST_PAUSE_IN_WRITE_MS and DRIFT_TEST_RESUME_FILE, set by bin/drift.js): the first
 * durable write blocks, its text on disk, before its rename, until the resume file exists (at most
 * `ms`): a test signals drift, then lets the write go on, so the signal is always inside it.
 */
let pauseInWrite: { ms: number; announce: () => void; resume?: string | undefined } | undefined;

export const writeGuard = {
  held: (): boolean => held > 0,
  /** Runs `then` once no write is held: at once when none is. The last one asked for wins. */
  afterWrites(then: () => void): void {
    if (held === 0) then();
    else whenReleased = then;
  },
  pauseFirstWrite(ms: number, announce: () => void, resume?: string): void {
    pauseInWrite = { ms, announce, resume };
  },
};

/** Blocks the thread, as a slow disk does: no signal handler runs until the write goes on. */
function testPause(): void {
  if (!pauseInWrite) return;
  const { ms, announce, resume } = pauseInWrite;
  pauseInWrite = undefined;
  announce();
  const until = Date.now() + ms;
  const slot = new Int32Array(new SharedArrayBuffer(4));
  do Atomics.wait(slot, 0, 0, resume === undefined ? ms : 10);
  while (resume !== undefined && !existsSync(resume) && Date.now() < until);
}

export function temporaryOf(target: string): string {
  return `${target}${TEMPORARY_MARK}${process.pid}`;
}

/**
 * Writes `text` to `target` atomically, creating its folder; a symlinked target is written through its
 * link (throughLink). With `exclusive`, refuses (EEXIST) to
 * replace a file that exists, atomically too: the temporary file is hard-linked to the target, which
 * fails if the name is taken, where a rename would replace it.
 */
export function writeFileAtomic(given: string, text: string | Uint8Array, options: { exclusive?: boolean; durable?: boolean } = {}): void {
  const release = holdWrites();
  try {
    writeWhole(options.exclusive ? given : throughLink(given), text, options);
  } finally {
    release();
  }
}

function writeWhole(target: string, text: string | Uint8Array, options: { exclusive?: boolean; durable?: boolean }): void {
  mkdirSync(path.dirname(target), { recursive: true });
  const temporary = temporaryOf(target);
  try {
    const fd = openSync(temporary, 'w');
    try {
      writeFileSync(fd, text);
      // A cache entry need not survive a power cut (a lost entry is a miss): it skips the flushes.
      if (options.durable !== false) {
        fsyncSync(fd);
        testPause();
      }
    } finally {
      closeSync(fd);
    }
    if (options.exclusive) {
      linkSync(temporary, target);
      rmSync(temporary, { force: true });
    } else {
      renameSync(temporary, target);
    }
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  if (options.durable !== false) syncFolder(path.dirname(target));
}

/**
 * The file a symbolic link names, so a write goes through the link and the link stays (a goldens
 * folder or accepted.yaml shared by links): the rename replaces the file it points at, not the link.
 * Anything else, a dangling link included, is written where it is.
 */
function throughLink(target: string): string {
  try {
    return lstatSync(target).isSymbolicLink() ? realpathSync(target) : target;
  } catch {
    return target;
  }
}

/**
 * Moves a folder built beside `target` (a `*.drift-tmp-<pid>` name from `temporaryOf`) into place in
 * one step: drift's own ruff environment. Fails when `target` exists (another drift finished first).
 */
export function moveFolderIntoPlace(temporary: string, target: string): void {
  renameSync(temporary, target);
}

/** Of these temporary files, removes those whose writer is gone; returns them. The cache's pruner lists its own. */
export function sweepFiles(files: readonly string[]): string[] {
  const removed: string[] = [];
  for (const file of files) {
    const pid = Number(TEMPORARY.exec(file)?.[1] ?? LEGACY_TEMPORARY.exec(file)?.[2]);
    if (!Number.isInteger(pid) || isRunning(pid)) continue;
    rmSync(file, { force: true });
    removed.push(file);
  }
  return removed.sort();
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return false; // this process writes synchronously: nothing of its own is in flight
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The rename is durable only once the folder's entry is on disk too. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems cannot sync a folder; the file itself is already on disk.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Removes what killed writes of this one file left (a report's folder may be anyone's: only its own leftovers go). */
export function sweepLeftoversOf(target: string): string[] {
  const folder = path.dirname(path.resolve(target));
  if (!existsSync(folder)) return [];
  const prefix = `${path.basename(target)}${TEMPORARY_MARK}`;
  return sweepFiles(readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.startsWith(prefix)).map((entry) => path.join(folder, entry.name)));
}
