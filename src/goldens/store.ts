import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import type { Project } from '../config/types.js';
import { LOCAL_POLICY, refuseUnless, type WritePolicy, type Written } from '../util/ci.js';
import { writeFileAtomic } from './atomicFile.js';
import { sweepLeftovers } from './leftovers.js';
import type { GoldenEnvironment } from './environment.js';

/**
 * The golden files on disk (`goldens/` of the project): the only module of drift's golden code that
 * writes, always atomically, and only what its write policy allows.
 */
export class GoldenStore implements GoldenEnvironment {
  /**
   * `policy` and `kind`: whether the store's files (`kind`) and accepted.yaml may be written; a store
   * that may not write its files sweeps nothing either. `swept`: other folders drift writes into (the
   * contract's), whose leftovers the sweep removes too.
   */
  constructor(
    readonly dir: string,
    private readonly policy: WritePolicy = LOCAL_POLICY.write,
    private readonly swept: readonly string[] = [],
    private readonly kind: Written = 'goldens',
  ) {}

  /** The store of a project: its config's `goldens` folder (and its contract folder, for the sweep), under the project's write policy. */
  static of(project: Project): GoldenStore {
    return new GoldenStore(path.resolve(project.config.root, project.config.goldens), project.policy.write, [path.resolve(project.config.root, project.config.contract)]);
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
    refuseUnless(this.policy, 'accepted');
    writeFileAtomic(this.acceptedFile, text);
  }

  /** Through the atomic writer (atomicFile.ts); only if the policy allows the store's kind of file. */
  write(file: string, text: string): void {
    refuseUnless(this.policy, this.kind);
    writeFileAtomic(this.path(file), text);
  }

  remove(file: string): void {
    refuseUnless(this.policy, this.kind);
    rmSync(this.path(file));
  }

  /**
   * Removes the temporary files of writes that a killed drift never renamed, here and in the other
   * folders drift writes into; returns them relative to this folder. Under CI drift touches nothing,
   * and a fresh checkout has no leftovers anyway.
   */
  sweep(): string[] {
    if (!this.policy.may[this.kind]) return [];
    return sweepLeftovers([this.dir, ...this.swept]).map((file) => path.relative(this.dir, file));
  }
}
