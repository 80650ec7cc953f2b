import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import type { Project } from '../config/types.js';
import { DriftError } from '../errors.js';
import { isCI } from '../util/ci.js';
import type { Environment } from '../util/environment.js';
import type { GoldenEnvironment } from './environment.js';

/** What an atomic write of `<file>` writes first; a kill between write and rename leaves it behind. */
const TEMPORARY = /\.yaml\.tmp-(\d+)$/;

/**
 * The golden files on disk (`goldens/` of the project): the only module of drift's golden code that
 * writes, always atomically, and never under CI.
 */
export class GoldenStore implements GoldenEnvironment {
  /** `ci`: under CI the store writes nothing and sweeps nothing. */
  constructor(
    readonly dir: string,
    private readonly ci = false,
  ) {}

  /** The store of a project: its config's `goldens` folder. */
  static of(project: Project): GoldenStore {
    return new GoldenStore(path.resolve(project.config.root, project.config.goldens), isCI(project.env));
  }

  /** The absolute path of a file of the store (`gke/converge.yaml`). */
  path(file: string): string {
    return path.join(this.dir, file);
  }

  read(file: string): string | undefined {
    const absolute = this.path(file);
    return existsSync(absolute) ? readFileSync(absolute, 'utf8') : undefined;
  }

  /** Whether a file or folder of the store exists. */
  has(file: string): boolean {
    return existsSync(this.path(file));
  }

  list(): string[] {
    if (!existsSync(this.dir)) return [];
    return fg.sync('*/*.yaml', { cwd: this.dir, onlyFiles: true }).sort();
  }

  /** goldens/accepted.yaml: the divergences and rule findings the team accepts. */
  get acceptedFile(): string {
    return this.path('accepted.yaml');
  }

  writeAccepted(text: string): void {
    this.write('accepted.yaml', text);
  }

  /**
   * Through a temporary file, flushed to disk before the rename, so a file is never half-written
   * even if the machine goes down; never under CI.
   */
  write(file: string, text: string): void {
    if (this.ci) refuseUnderCI({ CI: 'true' });
    const target = this.path(file);
    mkdirSync(path.dirname(target), { recursive: true });
    const temporary = `${target}.tmp-${process.pid}`;
    try {
      const fd = openSync(temporary, 'w');
      try {
        writeSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, target);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    syncFolder(path.dirname(target));
  }

  remove(file: string): void {
    if (this.ci) refuseUnderCI({ CI: 'true' });
    rmSync(this.path(file));
  }

  /**
   * Removes the temporary files of writes that a killed drift never renamed. A file whose process
   * is still running belongs to a write in progress (another drift in the same folder) and stays.
   * Under CI drift touches nothing, and a fresh checkout has no leftovers anyway.
   */
  sweep(): string[] {
    if (this.ci || !existsSync(this.dir)) return [];
    const leftovers = fg.sync(['*.yaml.tmp-*', '*/*.yaml.tmp-*'], { cwd: this.dir, onlyFiles: true }).sort();
    const removed: string[] = [];
    for (const file of leftovers) {
      const pid = Number(TEMPORARY.exec(file)?.[1]);
      if (!Number.isInteger(pid) || isRunning(pid)) continue;
      rmSync(this.path(file), { force: true });
      removed.push(file);
    }
    return removed;
  }
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

export function refuseUnderCI(env: Environment): void {
  if (isCI(env)) {
    throw new DriftError('CI is set: drift never writes goldens in CI. Run `drift update` locally (or comment `/drift update` on the pull request) and commit the result.');
  }
}
