import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import type { Project } from '../config/types.js';
import { DriftError } from '../errors.js';
import { isCI } from '../util/ci.js';
import type { Environment } from '../util/envVars.js';
import { sweepLeftovers, writeFileAtomic } from './atomicFile.js';
import type { GoldenEnvironment } from './environment.js';

/**
 * The golden files on disk (`goldens/` of the project): the only module of drift's golden code that
 * writes, always atomically, and never under CI.
 */
export class GoldenStore implements GoldenEnvironment {
  /**
   * `ci`: under CI the store writes nothing and sweeps nothing. `swept`: other folders drift writes
   * into (the contract's), whose leftovers the sweep removes too.
   */
  constructor(
    readonly dir: string,
    private readonly ci = false,
    private readonly swept: readonly string[] = [],
  ) {}

  /** The store of a project: its config's `goldens` folder (and its contract folder, for the sweep). */
  static of(project: Project): GoldenStore {
    return new GoldenStore(path.resolve(project.config.root, project.config.goldens), isCI(project.env), [path.resolve(project.config.root, project.config.contract)]);
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

  /** Through the atomic writer (atomicFile.ts); never under CI. */
  write(file: string, text: string): void {
    if (this.ci) refuseUnderCI({ CI: 'true' });
    writeFileAtomic(this.path(file), text);
  }

  remove(file: string): void {
    if (this.ci) refuseUnderCI({ CI: 'true' });
    rmSync(this.path(file));
  }

  /**
   * Removes the temporary files of writes that a killed drift never renamed, here and in the other
   * folders drift writes into; returns them relative to this folder. Under CI drift touches nothing,
   * and a fresh checkout has no leftovers anyway.
   */
  sweep(): string[] {
    if (this.ci) return [];
    return sweepLeftovers([this.dir, ...this.swept]).map((file) => path.relative(this.dir, file));
  }
}

export function refuseUnderCI(env: Environment): void {
  if (isCI(env)) {
    throw new DriftError('CI is set: drift never writes goldens in CI. Run `drift update` locally (or comment `/drift update` on the pull request) and commit the result.');
  }
}
